/*
 * canasta-loadgen: the closed-loop load generator of bench/workers_bench.py.
 *
 * The client shares the machine's cores with the servers it measures, so it must cost far
 * less CPU per call than they do: one blocking thread per TCP connection, raw HTTP/2 frames
 * for gRPC (h2c; HPACK literals without indexing on the way out, responses not decoded: a
 * call succeeded if its stream carried a DATA frame before the trailers, since the service
 * sends a message only with status OK; bench/workers_bench.py cross-checks the count with
 * /metrics) and raw HTTP/1.1 for REST. Built by bench/workers_bench.py with `cc -O2`.
 *
 * Requests come from a file of length-prefixed records (4-byte big-endian length, then the
 * bytes): serialized protobuf requests for -mode grpc, JSON bodies for -mode http. -auth names
 * a file of as many records, each request's credential ("Bearer <token>"), sent as its
 * `authorization` header (gRPC metadata or HTTP field). Each of -conns connections keeps
 * -streams calls in flight (gRPC; HTTP/1.1 has one) and starts a new call whenever one ends.
 * Prints one JSON line: calls, errors, rps, p50/p99, client CPU.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { uint8_t *data; uint32_t len; } rec_t;

static rec_t *reqs, *auths; /* auths: NULL, or one credential per request */
static size_t nreqs, nauths;
static const char *mode = "grpc", *target = "127.0.0.1:50051";
static const char *method = "/canasta.v1.CanastaEngine/LegalMoves";
static int conns = 16, streams = 4;
static double warmup = 1.0, duration = 5.0;
static atomic_int measuring, stopping;
static atomic_long errors_n;
static char first_error[200];
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
    int id;
    uint32_t *lat; /* microseconds */
    size_t n, cap;
} conn_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail(const char *what) {
    if (!atomic_load(&measuring)) return;
    atomic_fetch_add(&errors_n, 1);
    pthread_mutex_lock(&err_lock);
    if (!first_error[0]) snprintf(first_error, sizeof first_error, "%s", what);
    pthread_mutex_unlock(&err_lock);
}

static void record(conn_t *c, double t0) {
    if (!atomic_load(&measuring)) return;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 4096;
        c->lat = realloc(c->lat, c->cap * sizeof *c->lat);
    }
    c->lat[c->n++] = (uint32_t)((now_s() - t0) * 1e6);
}

static int dial(void) {
    char host[256];
    snprintf(host, sizeof host, "%s", target);
    char *colon = strrchr(host, ':');
    if (!colon) return -1;
    *colon = 0;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    if (getaddrinfo(host, colon + 1, &hints, &ai) != 0) return -1;
    int fd = socket(ai->ai_family, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        freeaddrinfo(ai);
        if (fd >= 0) close(fd);
        return -1;
    }
    freeaddrinfo(ai);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static int write_all(int fd, const uint8_t *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* --- gRPC over HTTP/2 ------------------------------------------------------------------ */

typedef struct { uint8_t *p; size_t n, cap; } buf_t;

static void put(buf_t *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void frame_head(buf_t *b, uint32_t len, uint8_t type, uint8_t flags, uint32_t id) {
    uint8_t h[9] = {len >> 16, len >> 8, len, type, flags, id >> 24, id >> 16, id >> 8, id};
    put(b, h, 9);
}

static void hpack_literal(buf_t *b, const char *name, const char *value) {
    /* literal header field without indexing, new name; lengths < 127, no Huffman */
    uint8_t z = 0, ln = (uint8_t)strlen(name), lv = (uint8_t)strlen(value);
    put(b, &z, 1);
    put(b, &ln, 1);
    put(b, name, ln);
    put(b, &lv, 1);
    put(b, value, lv);
}

#define MAXSTREAMS 4096
#define RECV_WINDOW (1u << 24)

static void *grpc_conn(void *arg) {
    conn_t *c = arg;
    int fd = dial();
    if (fd < 0) {
        fail("connect");
        return NULL;
    }
    buf_t out = {0}, hdr = {0};
    hpack_literal(&hdr, ":method", "POST");
    hpack_literal(&hdr, ":scheme", "http");
    hpack_literal(&hdr, ":path", method);
    hpack_literal(&hdr, ":authority", target);
    hpack_literal(&hdr, "content-type", "application/grpc");
    hpack_literal(&hdr, "te", "trailers");
    /* one header block per request when each has its own credential */
    buf_t *hdrs = calloc(auths ? nreqs : 1, sizeof *hdrs);
    for (size_t k = 0; k < (auths ? nreqs : 1); k++) {
        put(&hdrs[k], hdr.p, hdr.n);
        if (auths) {
            char value[128];
            snprintf(value, sizeof value, "%.*s", (int)auths[k].len, (const char *)auths[k].data);
            hpack_literal(&hdrs[k], "authorization", value);
        }
    }

    put(&out, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 24);
    uint8_t settings[12] = {0, 2, 0, 0, 0, 0, /* ENABLE_PUSH 0, INITIAL_WINDOW_SIZE 2^24 */
                            0, 4, 0x01, 0, 0, 0};
    frame_head(&out, 12, 4, 0, 0);
    put(&out, settings, 12);
    uint8_t inc[4] = {0x01, 0, 0, 0}; /* connection window += 2^24 */
    frame_head(&out, 4, 8, 0, 0);
    put(&out, inc, 4);

    double start[MAXSTREAMS] = {0};
    uint8_t got_data[MAXSTREAMS] = {0};
    uint32_t next_id = 1;
    int64_t send_window = 65535;
    uint64_t unacked = 0;
    size_t i = (size_t)c->id * nreqs / (size_t)conns;
    int pending = 0;

#define SEND_CALL()                                                                         \
    do {                                                                                    \
        rec_t *r = &reqs[i % nreqs];                                                        \
        buf_t *hb = &hdrs[auths ? i % nreqs : 0];                                           \
        if ((int64_t)r->len + 5 > send_window) { pending++; break; }                        \
        i++;                                                                                \
        send_window -= r->len + 5;                                                          \
        uint32_t id = next_id;                                                              \
        next_id += 2;                                                                       \
        start[(id >> 1) % MAXSTREAMS] = now_s();                                            \
        got_data[(id >> 1) % MAXSTREAMS] = 0;                                               \
        frame_head(&out, (uint32_t)hb->n, 1, 0x4, id);                                      \
        put(&out, hb->p, hb->n);                                                            \
        frame_head(&out, r->len + 5, 0, 0x1, id);                                           \
        uint8_t g[5] = {0, r->len >> 24, r->len >> 16, r->len >> 8, r->len};                \
        put(&out, g, 5);                                                                    \
        put(&out, r->data, r->len);                                                         \
    } while (0)

    for (int k = 0; k < streams; k++) SEND_CALL();
    size_t cap = 1 << 20, have = 0;
    uint8_t *in = malloc(cap);
    while (!atomic_load(&stopping)) {
        if (out.n) {
            if (write_all(fd, out.p, out.n) != 0) { fail("write"); break; }
            out.n = 0;
        }
        ssize_t got = read(fd, in + have, cap - have);
        if (got <= 0) {
            if (got < 0 && errno == EINTR) continue;
            if (!atomic_load(&stopping)) fail("connection closed");
            break;
        }
        have += (size_t)got;
        size_t off = 0;
        while (have - off >= 9) {
            uint8_t *h = in + off;
            uint32_t len = (uint32_t)h[0] << 16 | (uint32_t)h[1] << 8 | h[2];
            uint8_t type = h[3], flags = h[4];
            uint32_t id = ((uint32_t)h[5] << 24 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 8 | h[8]) & 0x7fffffff;
            if (have - off < 9 + (size_t)len) break;
            uint8_t *payload = h + 9;
            switch (type) {
            case 0: /* DATA */
                got_data[(id >> 1) % MAXSTREAMS] = 1;
                unacked += len;
                if (unacked > RECV_WINDOW / 2) {
                    uint8_t u[4] = {(uint8_t)(unacked >> 24), (uint8_t)(unacked >> 16),
                                    (uint8_t)(unacked >> 8), (uint8_t)unacked};
                    frame_head(&out, 4, 8, 0, 0);
                    put(&out, u, 4);
                    unacked = 0;
                }
                break;
            case 1: /* HEADERS: the trailers end the call */
                if (flags & 0x1) {
                    size_t s = (id >> 1) % MAXSTREAMS;
                    if (got_data[s]) record(c, start[s]);
                    else fail("call ended without a message (non-OK status)");
                    SEND_CALL();
                }
                break;
            case 3: /* RST_STREAM */
                fail("RST_STREAM");
                SEND_CALL();
                break;
            case 4: /* SETTINGS */
                if (!(flags & 0x1)) frame_head(&out, 0, 4, 0x1, 0);
                break;
            case 6: /* PING */
                if (!(flags & 0x1)) {
                    frame_head(&out, 8, 6, 0x1, 0);
                    put(&out, payload, 8);
                }
                break;
            case 7: /* GOAWAY */
                fail("GOAWAY");
                goto done;
            case 8: /* WINDOW_UPDATE */
                if (id == 0) {
                    send_window += ((uint32_t)payload[0] << 24 | (uint32_t)payload[1] << 16 |
                                    (uint32_t)payload[2] << 8 | payload[3]) & 0x7fffffff;
                    int waiting = pending;
                    pending = 0;
                    while (waiting-- > 0) SEND_CALL();
                }
                break;
            default: /* CONTINUATION, PRIORITY, ...: ignored */
                break;
            }
            off += 9 + len;
        }
        memmove(in, in + off, have - off);
        have -= off;
    }
done:
    close(fd);
    return NULL;
}

/* --- HTTP/1.1 -------------------------------------------------------------------------- */

static void *http_conn(void *arg) {
    conn_t *c = arg;
    int fd = dial();
    if (fd < 0) {
        fail("connect");
        return NULL;
    }
    buf_t *raw = calloc(nreqs, sizeof *raw);
    for (size_t k = 0; k < nreqs; k++) {
        char head[768], auth[160] = "";
        if (auths)
            snprintf(auth, sizeof auth, "Authorization: %.*s\r\n", (int)auths[k].len,
                     (const char *)auths[k].data);
        int n = snprintf(head, sizeof head, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: "
                         "application/json\r\n%sContent-Length: %u\r\n\r\n", method, target,
                         auth, reqs[k].len);
        put(&raw[k], head, (size_t)n);
        put(&raw[k], reqs[k].data, reqs[k].len);
    }
    size_t cap = 1 << 20, have = 0;
    char *in = malloc(cap + 1);
    for (size_t i = (size_t)c->id * nreqs / (size_t)conns; !atomic_load(&stopping); i++) {
        double t0 = now_s();
        if (write_all(fd, raw[i % nreqs].p, raw[i % nreqs].n) != 0) { fail("write"); break; }
        size_t head_end = 0, body = 0;
        int ok = 0;
        for (;;) { /* read until the headers and Content-Length bytes of body are in */
            if (!head_end) {
                in[have] = 0;
                char *e = strstr(in, "\r\n\r\n");
                if (e) {
                    head_end = (size_t)(e - in) + 4;
                    ok = strncmp(in, "HTTP/1.1 200", 12) == 0;
                    char *cl = strcasestr(in, "\r\ncontent-length:");
                    if (!cl || cl > e) { fail("no Content-Length"); goto out; }
                    body = strtoul(cl + 17, NULL, 10);
                }
            }
            if (head_end && have >= head_end + body) break;
            ssize_t got = read(fd, in + have, cap - have);
            if (got <= 0) {
                if (got < 0 && errno == EINTR) continue;
                if (!atomic_load(&stopping)) fail("connection closed");
                goto out;
            }
            have += (size_t)got;
        }
        if (ok) record(c, t0);
        else fail("HTTP status not 200");
        memmove(in, in + head_end + body, have - head_end - body);
        have -= head_end + body;
    }
out:
    close(fd);
    return NULL;
}

/* --- main ------------------------------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void sleep_s(double s) {
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/* the length-prefixed records of a file (exits on a malformed one) */
static rec_t *load_records(const char *file, size_t *n) {
    FILE *fp = fopen(file, "rb");
    if (!fp) { perror(file); exit(2); }
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *all = malloc((size_t)size + 1);
    if (fread(all, 1, (size_t)size, fp) != (size_t)size) { perror(file); exit(2); }
    fclose(fp);
    rec_t *out = NULL;
    *n = 0;
    for (long off = 0; off + 4 <= size;) {
        uint32_t len = (uint32_t)all[off] << 24 | (uint32_t)all[off + 1] << 16 |
                       (uint32_t)all[off + 2] << 8 | all[off + 3];
        if (off + 4 + (long)len > size) { fprintf(stderr, "truncated record\n"); exit(2); }
        out = realloc(out, (*n + 1) * sizeof *out);
        out[(*n)++] = (rec_t){all + off + 4, len};
        off += 4 + len;
    }
    return out;
}

int main(int argc, char **argv) {
    const char *file = NULL, *auth_file = NULL;
    for (int k = 1; k + 1 < argc; k += 2) {
        const char *f = argv[k], *v = argv[k + 1];
        if (!strcmp(f, "-mode")) mode = v;
        else if (!strcmp(f, "-target")) target = v;
        else if (!strcmp(f, "-method")) method = v;
        else if (!strcmp(f, "-requests")) file = v;
        else if (!strcmp(f, "-auth")) auth_file = v;
        else if (!strcmp(f, "-conns")) conns = atoi(v);
        else if (!strcmp(f, "-streams")) streams = atoi(v);
        else if (!strcmp(f, "-warmup")) warmup = atof(v);   /* "1.0s" parses as 1.0 */
        else if (!strcmp(f, "-duration")) duration = atof(v);
        else { fprintf(stderr, "unknown flag %s\n", f); return 2; }
    }
    int http = !strcmp(mode, "http");
    if (!file || (!http && strcmp(mode, "grpc")) || conns < 1 || streams < 1 ||
        streams > MAXSTREAMS / 2) {
        fprintf(stderr, "usage: canasta-loadgen -mode grpc|http -target H:P -method M "
                "-requests FILE [-auth FILE -conns N -streams N -warmup S -duration S]\n");
        return 2;
    }
    reqs = load_records(file, &nreqs);
    if (!nreqs) { fprintf(stderr, "no requests in %s\n", file); return 2; }
    if (auth_file) {
        auths = load_records(auth_file, &nauths);
        if (nauths != nreqs) {
            fprintf(stderr, "%s: %zu credentials for %zu requests\n", auth_file, nauths, nreqs);
            return 2;
        }
        for (size_t k = 0; k < nauths; k++)
            if (auths[k].len > 120) { fprintf(stderr, "credential too long\n"); return 2; }
    }

    conn_t *cs = calloc((size_t)conns, sizeof *cs);
    pthread_t *ts = calloc((size_t)conns, sizeof *ts);
    for (int k = 0; k < conns; k++) {
        cs[k].id = k;
        pthread_create(&ts[k], NULL, http ? http_conn : grpc_conn, &cs[k]);
    }
    sleep_s(warmup);
    double cpu0 = cpu_s(), t0 = now_s();
    atomic_store(&measuring, 1);
    sleep_s(duration);
    atomic_store(&measuring, 0);
    double elapsed = now_s() - t0, cpu = cpu_s() - cpu0;
    atomic_store(&stopping, 1);
    sleep_s(0.05); /* let threads finish the record they may be writing */

    size_t total = 0;
    for (int k = 0; k < conns; k++) total += cs[k].n;
    uint32_t *lat = malloc((total + 1) * sizeof *lat);
    size_t at = 0;
    for (int k = 0; k < conns; k++) {
        memcpy(lat + at, cs[k].lat, cs[k].n * sizeof *lat);
        at += cs[k].n;
    }
    qsort(lat, total, sizeof *lat, cmp_u32);
    double p50 = total ? lat[total / 2] / 1e3 : 0, p99 = total ? lat[total * 99 / 100] / 1e3 : 0;
    char err[256] = "";
    if (first_error[0]) snprintf(err, sizeof err, ",\"first_error\":\"%s\"", first_error);
    printf("{\"calls\":%zu,\"errors\":%ld,\"seconds\":%.6f,\"rps\":%.3f,\"p50_ms\":%.3f,"
           "\"p99_ms\":%.3f,\"client_cpu_seconds\":%.6f,\"conns\":%d,\"in_flight\":%d%s}\n",
           total, atomic_load(&errors_n), elapsed, total / elapsed, p50, p99, cpu, conns,
           http ? conns : conns * streams, err);
    fflush(stdout);
    _exit(0); /* threads may still block in read() */
}
