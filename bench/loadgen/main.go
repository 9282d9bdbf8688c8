// Command canasta-loadgen is the closed-loop load generator of bench/workers_bench.py: it
// replays pre-built requests against the rules service over gRPC (HTTP/2 cleartext) or
// HTTP/1.1 and prints one JSON line of results.
//
// It exists because the client shares the machine's cores with the servers it measures:
// it speaks both protocols with a minimal hand-written client (raw HTTP/2 frames through
// golang.org/x/net/http2's Framer and HPACK, one goroutine per connection; raw HTTP/1.1
// over a socket), so a call costs it a small fraction of what it costs a Python server.
//
// Requests come from a file of length-prefixed records (4-byte big-endian length, then
// the bytes): serialized protobuf requests for -mode grpc, JSON bodies for -mode http.
// Each of -conns TCP connections (so SO_REUSEPORT spreads them over the server's workers)
// keeps -streams calls in flight (gRPC; HTTP/1.1 has one), starting a new call whenever
// one ends.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

type result struct {
	Calls      int64   `json:"calls"`
	Errors     int64   `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	Seconds    float64 `json:"seconds"`
	RPS        float64 `json:"rps"`
	P50ms      float64 `json:"p50_ms"`
	P99ms      float64 `json:"p99_ms"`
	ClientCPUs float64 `json:"client_cpu_seconds"`
	Conns      int     `json:"conns"`
	InFlight   int     `json:"in_flight"`
}

// stats is shared by all connections; each connection keeps its own latency slice.
type stats struct {
	measuring atomic.Bool
	stop      atomic.Bool
	errors    atomic.Int64
	firstErr  atomic.Value
}

func (s *stats) fail(err error) {
	if s.measuring.Load() {
		s.errors.Add(1)
		s.firstErr.CompareAndSwap(nil, err.Error())
	}
}

func readRecords(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for len(data) >= 4 {
		n := binary.BigEndian.Uint32(data[:4])
		if int(n) > len(data)-4 {
			return nil, errors.New("truncated record")
		}
		out = append(out, data[4:4+n])
		data = data[4+n:]
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no requests in %s", path)
	}
	return out, nil
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// --- gRPC over raw HTTP/2 -----------------------------------------------------------------

const recvWindow = 1 << 24

type h2stream struct {
	start  time.Time
	status string // grpc-status from the trailers
}

// grpcConn runs one HTTP/2 connection with `inFlight` calls always outstanding until stop.
func grpcConn(target, path string, reqs [][]byte, offset, inFlight int, st *stats,
	lat *[]time.Duration) error {
	conn, err := net.Dial("tcp", target)
	if err != nil {
		return err
	}
	defer conn.Close()
	bw := bufio.NewWriterSize(conn, 64<<10)
	if _, err := bw.WriteString(http2.ClientPreface); err != nil {
		return err
	}
	br := bufio.NewReaderSize(conn, 64<<10)
	fr := http2.NewFramer(bw, br)
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	fr.MaxHeaderListSize = 1 << 20
	if err := fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: recvWindow}); err != nil {
		return err
	}
	if err := fr.WriteWindowUpdate(0, recvWindow); err != nil {
		return err
	}
	var hbuf bytes.Buffer
	enc := hpack.NewEncoder(&hbuf)
	sendWindow := int64(65535) // the server's connection-level window for our DATA
	streamWindow := int64(65535)
	var unacked int64 // DATA received since our last connection WINDOW_UPDATE
	streams := map[uint32]*h2stream{}
	next := uint32(1)
	i := offset
	pending := 0 // calls waiting for send window

	send := func() error {
		body := reqs[i%len(reqs)]
		size := int64(len(body) + 5)
		if size > sendWindow || size > streamWindow {
			pending++ // sent when the server's WINDOW_UPDATE arrives
			return nil
		}
		i++
		sendWindow -= size
		hbuf.Reset()
		for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", path},
			{":authority", target}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
			_ = enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
		}
		id := next
		next += 2
		streams[id] = &h2stream{start: time.Now()}
		if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id,
			BlockFragment: hbuf.Bytes(), EndHeaders: true}); err != nil {
			return err
		}
		msg := make([]byte, 5+len(body))
		binary.BigEndian.PutUint32(msg[1:5], uint32(len(body)))
		copy(msg[5:], body)
		return fr.WriteData(id, true, msg)
	}
	for k := 0; k < inFlight; k++ {
		if err := send(); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	for !st.stop.Load() {
		f, err := fr.ReadFrame()
		if err != nil {
			return err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				if v, ok := f.Value(http2.SettingInitialWindowSize); ok {
					streamWindow = int64(v)
				}
				if err := fr.WriteSettingsAck(); err != nil {
					return err
				}
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				if err := fr.WritePing(true, f.Data); err != nil {
					return err
				}
			}
		case *http2.WindowUpdateFrame:
			if f.StreamID == 0 {
				sendWindow += int64(f.Increment)
				for pending > 0 && sendWindow >= int64(len(reqs[i%len(reqs)])+5) {
					pending--
					if err := send(); err != nil {
						return err
					}
				}
			}
		case *http2.DataFrame:
			unacked += int64(len(f.Data()))
			if unacked > recvWindow/2 {
				if err := fr.WriteWindowUpdate(0, uint32(unacked)); err != nil {
					return err
				}
				unacked = 0
			}
		case *http2.MetaHeadersFrame:
			s := streams[f.StreamID]
			if s == nil {
				return fmt.Errorf("headers for unknown stream %d", f.StreamID)
			}
			if v := f.PseudoValue("status"); v != "" && v != "200" {
				s.status = "http " + v
			}
			for _, hf := range f.RegularFields() {
				if hf.Name == "grpc-status" && s.status == "" {
					s.status = hf.Value
				}
			}
			if f.StreamEnded() {
				delete(streams, f.StreamID)
				if s.status == "0" {
					if st.measuring.Load() {
						*lat = append(*lat, time.Since(s.start))
					}
				} else {
					st.fail(fmt.Errorf("grpc-status %q", s.status))
				}
				if err := send(); err != nil {
					return err
				}
			}
		case *http2.RSTStreamFrame:
			delete(streams, f.StreamID)
			st.fail(fmt.Errorf("RST_STREAM %v", f.ErrCode))
			if err := send(); err != nil {
				return err
			}
		case *http2.GoAwayFrame:
			return fmt.Errorf("GOAWAY %v", f.ErrCode)
		}
		if br.Buffered() == 0 { // one write for everything the frames read so far called for
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// --- HTTP/1.1 -----------------------------------------------------------------------------

func httpConn(target, path string, reqs [][]byte, offset int, st *stats,
	lat *[]time.Duration) error {
	conn, err := net.Dial("tcp", target)
	if err != nil {
		return err
	}
	defer conn.Close()
	raw := make([][]byte, len(reqs))
	for k, body := range reqs {
		raw[k] = append([]byte(fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, target,
			len(body))), body...)
	}
	br := bufio.NewReaderSize(conn, 64<<10)
	for i := offset; !st.stop.Load(); i++ {
		t0 := time.Now()
		if _, err := conn.Write(raw[i%len(raw)]); err != nil {
			return err
		}
		status, length := "", -1
		for {
			line, err := br.ReadSlice('\n')
			if err != nil {
				return err
			}
			if status == "" {
				status = string(bytes.TrimSpace(line))
			}
			if len(line) <= 2 {
				break
			}
			if k := bytes.IndexByte(line, ':'); k > 0 &&
				bytes.EqualFold(line[:k], []byte("content-length")) {
				length, _ = strconv.Atoi(string(bytes.TrimSpace(line[k+1:])))
			}
		}
		if length < 0 {
			return errors.New("response without Content-Length")
		}
		if _, err := br.Discard(length); err != nil {
			return err
		}
		if !bytes.HasPrefix([]byte(status), []byte("HTTP/1.1 200")) {
			st.fail(errors.New(status))
		} else if st.measuring.Load() {
			*lat = append(*lat, time.Since(t0))
		}
	}
	return nil
}

func main() {
	mode := flag.String("mode", "grpc", "grpc or http")
	target := flag.String("target", "127.0.0.1:50051", "host:port")
	method := flag.String("method", "/canasta.v1.CanastaEngine/LegalMoves", "gRPC method or HTTP path")
	file := flag.String("requests", "", "length-prefixed request records")
	conns := flag.Int("conns", 16, "connections")
	streams := flag.Int("streams", 4, "calls in flight per connection (gRPC only)")
	warmup := flag.Duration("warmup", time.Second, "unmeasured warm-up")
	duration := flag.Duration("duration", 5*time.Second, "measured time")
	procs := flag.Int("procs", 1, "OS threads running Go code (GOMAXPROCS): 1 is the cheapest")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)

	reqs, err := readRecords(*file)
	if err != nil || (*mode != "grpc" && *mode != "http") {
		fmt.Fprintln(os.Stderr, "bad arguments:", err, *mode)
		os.Exit(2)
	}
	inFlight := *streams
	if *mode == "http" {
		inFlight = 1
	}
	st := &stats{}
	lat := make([][]time.Duration, *conns)
	connErr := make([]error, *conns)
	var wg sync.WaitGroup
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			offset := c * len(reqs) / *conns
			if *mode == "grpc" {
				connErr[c] = grpcConn(*target, *method, reqs, offset, inFlight, st, &lat[c])
			} else {
				connErr[c] = httpConn(*target, *method, reqs, offset, st, &lat[c])
			}
			if connErr[c] != nil && !st.stop.Load() {
				st.fail(connErr[c])
			}
		}(c)
	}
	time.Sleep(*warmup)
	cpu0, t0 := cpuSeconds(), time.Now()
	st.measuring.Store(true)
	time.Sleep(*duration)
	st.measuring.Store(false)
	elapsed, cpu := time.Since(t0).Seconds(), cpuSeconds()-cpu0
	st.stop.Store(true)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select { // a connection blocked in a read ends with the process
	case <-done:
	case <-time.After(5 * time.Second):
	}

	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(a, b int) bool { return all[a] < all[b] })
	r := result{Calls: int64(len(all)), Errors: st.errors.Load(), Seconds: elapsed,
		RPS: float64(len(all)) / elapsed, ClientCPUs: cpu, Conns: *conns,
		InFlight: *conns * inFlight}
	if e, ok := st.firstErr.Load().(string); ok {
		r.FirstError = e
	}
	if n := len(all); n > 0 {
		r.P50ms = float64(all[n/2]) / 1e6
		r.P99ms = float64(all[min(n-1, n*99/100)]) / 1e6
	}
	_ = json.NewEncoder(os.Stdout).Encode(r)
}
