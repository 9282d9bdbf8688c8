// The retry hint of a refusal for load (google.rpc.RetryInfo, REST's Retry-After), decoded
// from real status bytes and real AIP-193 bodies, and the client's retries on it: fake
// servers only.
import assert from "node:assert/strict";
import { createServer as createHttp2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { create, toBinary, type JsonValue } from "@bufbuild/protobuf";
import { anyPack, DurationSchema } from "@bufbuild/protobuf/wkt";
import { ErrorInfoSchema, RetryInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { StatusSchema } from "../src/gen/google/rpc/status_pb.js";
import { errorFromRestBody, errorFromStatusBytes, grpcClient } from "../src/node.js";
import { restClient } from "../src/rest.js";
import { rejects } from "./rejects.js";

const TOO_MANY = anyPack(ErrorInfoSchema, create(ErrorInfoSchema, {
  reason: "TOO_MANY_CALLS", domain: "canasta-rules", metadata: { limit: "4" },
}));

/** A RESOURCE_EXHAUSTED TOO_MANY_CALLS status in binary, with a RetryInfo when `delay` is given. */
function statusBytes(delay?: { seconds: bigint; nanos: number }): Uint8Array {
  const details = [TOO_MANY];
  if (delay) {
    details.push(anyPack(RetryInfoSchema, create(RetryInfoSchema, {
      retryDelay: create(DurationSchema, delay),
    })));
  }
  return toBinary(StatusSchema, create(StatusSchema, { code: 8, message: "too many calls", details }));
}

/** An AIP-193 body of a refusal for load, with a RetryInfo of `retryDelay` when given. */
function restBody(retryDelay?: string): JsonValue {
  const details: JsonValue[] = [{
    "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TOO_MANY_CALLS",
    domain: "canasta-rules", metadata: { limit: "4" },
  }];
  if (retryDelay !== undefined) details.push({ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay });
  return { error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "too many calls", details } };
}

describe("retryAfterMs over gRPC (grpc-status-details-bin)", () => {
  it("reads a RetryInfo of 1 s and of 1.5 s, and is undefined without one", () => {
    const one = errorFromStatusBytes("RESOURCE_EXHAUSTED", "", statusBytes({ seconds: 1n, nanos: 0 }));
    assert.equal(one.reason, "TOO_MANY_CALLS");
    assert.equal(one.retryAfterMs, 1000);
    const oneHalf = errorFromStatusBytes("RESOURCE_EXHAUSTED", "",
      statusBytes({ seconds: 1n, nanos: 500_000_000 }));
    assert.equal(oneHalf.retryAfterMs, 1500);
    const none = errorFromStatusBytes("RESOURCE_EXHAUSTED", "", statusBytes());
    assert.equal(none.reason, "TOO_MANY_CALLS");
    assert.equal(none.retryAfterMs, undefined);
  });

  it("reads a negative RetryInfo, malformed, as no hint: never one of 0 s (as in every SDK)", () => {
    for (const delay of [{ seconds: -1n, nanos: 0 }, { seconds: 0n, nanos: -100_000 }]) {
      const err = errorFromStatusBytes("RESOURCE_EXHAUSTED", "", statusBytes(delay));
      assert.equal(err.reason, "TOO_MANY_CALLS");
      assert.equal(err.retryAfterMs, undefined, `${delay.seconds} s ${delay.nanos} ns`);
    }
  });

  it("reaches the error of a call refused by a gRPC server", async () => {
    // a server answering every call trailers-only: RESOURCE_EXHAUSTED with the status details
    const details = Buffer.from(statusBytes({ seconds: 1n, nanos: 0 })).toString("base64");
    const sessions: { destroy(): void }[] = [];
    const server = createHttp2Server()
      .on("session", (session) => { sessions.push(session); })
      .on("stream", (stream) => {
        stream.respond({
          ":status": 200, "content-type": "application/grpc", "grpc-status": "8",
          "grpc-message": "too many calls", "grpc-status-details-bin": details,
        }, { endStream: true });
      });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = grpcClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      { timeoutMs: 5000 });
    try {
      const err = await rejects(client.listVariants());
      assert.equal(err.code, "RESOURCE_EXHAUSTED");
      assert.equal(err.reason, "TOO_MANY_CALLS");
      assert.equal(err.retryAfterMs, 1000);
    } finally {
      for (const s of sessions) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("serverMessage: the server's words alone, to show a player", () => {
  it("is the status message over both transports, where `message` leads with code and reason", () => {
    const grpc = errorFromStatusBytes("RESOURCE_EXHAUSTED", "", statusBytes());
    const rest = errorFromRestBody(429, restBody());
    for (const err of [grpc, rest]) {
      assert.equal(err.serverMessage, "too many calls");
      assert.equal(err.message, "RESOURCE_EXHAUSTED TOO_MANY_CALLS: too many calls");
    }
    assert.equal(errorFromRestBody(502, undefined).serverMessage, "HTTP 502");
  });
});

describe("a REST answer without an AIP-193 body (a proxy's)", () => {
  it("a 502 bad gateway is UNAVAILABLE, as the gRPC SDKs read it behind the same proxy", () => {
    const err = errorFromRestBody(502, undefined);
    assert.equal(err.code, "UNAVAILABLE");
    assert.equal(err.httpStatus, 502);
    assert.equal(err.message, "UNAVAILABLE -: HTTP 502");
  });
});

describe("retryAfterMs over REST (AIP-193 body, Retry-After)", () => {
  it("reads the body's RetryInfo of \"1s\" and \"1.500s\", and is undefined without one", () => {
    const one = errorFromRestBody(429, restBody("1s"));
    assert.equal(one.reason, "TOO_MANY_CALLS");
    assert.equal(one.retryAfterMs, 1000);
    assert.equal(errorFromRestBody(429, restBody("1.500s")).retryAfterMs, 1500);
    assert.equal(errorFromRestBody(429, restBody()).retryAfterMs, undefined);
    assert.equal(errorFromRestBody(503, undefined).retryAfterMs, undefined);
    // a negative delay is malformed: no hint, as over gRPC
    assert.equal(errorFromRestBody(429, restBody("-1s")).retryAfterMs, undefined);
    assert.equal(errorFromRestBody(429, restBody("-0.000100s")).retryAfterMs, undefined);
  });

  it("falls back on the Retry-After header (delta-seconds only) when the body has no RetryInfo", async () => {
    const answers: { status: number; body: JsonValue | string; retryAfter?: string }[] = [];
    const client = restClient("http://canasta.invalid", {
      timeoutMs: 5000,
      fetch: async () => {
        const a = answers.shift()!;
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (a.retryAfter !== undefined) headers["retry-after"] = a.retryAfter;
        const text = typeof a.body === "string" ? a.body : JSON.stringify(a.body);
        return new Response(text, { status: a.status, headers });
      },
    });
    const retryAfterMs = async (status: number, body: JsonValue | string, retryAfter?: string) => {
      answers.push({ status, body, retryAfter });
      const err = await rejects(client.listVariants());
      if (typeof body !== "string") assert.equal(err.reason, "TOO_MANY_CALLS");
      assert.equal(err.httpStatus, status);
      return err.retryAfterMs;
    };
    // the body has no RetryInfo: the header says it
    assert.equal(await retryAfterMs(429, restBody(), "1"), 1000);
    // REST's connection cap: 503 UNAVAILABLE, a plain-text body
    assert.equal(await retryAfterMs(503, "Service Unavailable", "2"), 2000);
    // the body's RetryInfo comes first
    assert.equal(await retryAfterMs(429, restBody("1.500s"), "1"), 1500);
    // an HTTP-date, garbage or no header at all: no hint
    assert.equal(await retryAfterMs(429, restBody(), "Wed, 21 Oct 2015 07:28:00 GMT"), undefined);
    assert.equal(await retryAfterMs(429, restBody(), "soon"), undefined);
    assert.equal(await retryAfterMs(429, restBody(), "-1"), undefined);
    assert.equal(await retryAfterMs(429, restBody()), undefined);
  });
});

describe("retries: a refusal for load sent again after its hint", () => {
  /** A REST client whose fetch refuses the first `refusals` calls with `refusal`, then answers `{}`. */
  function refusedAtFirst(refusals: number, refusal: () => Response, options: { retries?: number; timeoutMs?: number }) {
    const sent: { at: number; body: string }[] = [];
    const client = restClient("http://canasta.invalid", {
      ...options,
      fetch: async (_url, init) => {
        sent.push({ at: performance.now(), body: String(init?.body) });
        return sent.length <= refusals ? refusal() : new Response("{}", { status: 200 });
      },
    });
    return { client, sent };
  }
  const busy = (delay?: string) => () => new Response(JSON.stringify(restBody(delay)), { status: 429 });
  const gaps = (sent: { at: number }[]) => sent.slice(1).map((s, i) => s.at - sent[i]!.at);

  it("sends the same call again after the delay, up to `retries` times, then rejects", async () => {
    const ok = refusedAtFirst(2, busy("0.200s"), { retries: 2 });
    const seat = ok.client.withToken("a-seat-token"); // the copy keeps the retries
    await seat.scoreHand(new Uint8Array([1, 2, 3]));
    assert.equal(ok.sent.length, 3);
    assert.ok(ok.sent.every((s) => s.body === ok.sent[0]!.body));
    assert.ok(gaps(ok.sent).every((g) => g >= 190), String(gaps(ok.sent)));

    const over = refusedAtFirst(3, busy("0.200s"), { retries: 2 });
    const err = await rejects(over.client.listVariants());
    assert.equal(err.reason, "TOO_MANY_CALLS");
    assert.equal(over.sent.length, 3);
  });

  it("rejects at once by default, and on a refusal without a hint", async () => {
    const byDefault = refusedAtFirst(1, busy("0.200s"), {});
    assert.equal((await rejects(byDefault.client.listVariants())).retryAfterMs, 200);
    assert.equal(byDefault.sent.length, 1);
    const noHint = refusedAtFirst(1, busy(), { retries: 3 });
    assert.equal((await rejects(noHint.client.listVariants())).retryAfterMs, undefined);
    assert.equal(noHint.sent.length, 1);
    const negative = refusedAtFirst(1, busy("-0.000100s"), { retries: 3 });
    assert.equal((await rejects(negative.client.listVariants())).retryAfterMs, undefined);
    assert.equal(negative.sent.length, 1);
    assert.throws(() => restClient("http://canasta.invalid", { retries: -1 }), RangeError);
  });

  it("keeps to the call's deadline: no wait that would pass it", async () => {
    const tight = refusedAtFirst(9, busy("0.400s"), { retries: 5, timeoutMs: 1000 });
    const started = performance.now();
    await rejects(tight.client.listVariants());
    // sends at about 0, 0.4 and 0.8 s; a fourth would come after the 1 s deadline
    assert.equal(tight.sent.length, 3, String(gaps(tight.sent)));
    assert.ok(performance.now() - started < 1000);
    const long = refusedAtFirst(9, busy("60s"), { retries: 5, timeoutMs: 5000 });
    await rejects(long.client.listVariants()); // the wait (10 s at most) passes the deadline
    assert.equal(long.sent.length, 1);
  });

  it("stops waiting when the call's signal aborts", async () => {
    const waiting = refusedAtFirst(9, busy("5s"), { retries: 3, timeoutMs: 30_000 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const started = performance.now();
    const err = await rejects(waiting.client.listVariants({ signal: abort.signal }));
    assert.equal(err.reason, "TOO_MANY_CALLS");
    assert.ok(performance.now() - started < 2000);
    assert.equal(waiting.sent.length, 1);
  });

  it("retries over gRPC too", async () => {
    // refuses the first two calls trailers-only with the status details, then answers an empty message
    const details = Buffer.from(statusBytes({ seconds: 0n, nanos: 200_000_000 })).toString("base64");
    const sessions: { destroy(): void }[] = [];
    const arrived: number[] = [];
    const server = createHttp2Server()
      .on("session", (session) => { sessions.push(session); })
      .on("stream", (stream) => {
        arrived.push(performance.now());
        stream.resume();
        if (arrived.length <= 2) {
          stream.respond({
            ":status": 200, "content-type": "application/grpc", "grpc-status": "8",
            "grpc-message": "too many calls", "grpc-status-details-bin": details,
          }, { endStream: true });
          return;
        }
        stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
        stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
        stream.end(Buffer.alloc(5)); // one uncompressed message of 0 bytes
      });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = grpcClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      { timeoutMs: 5000, retries: 2 });
    try {
      const answer = await client.listVariants();
      assert.equal(answer.variants.length, 0);
      assert.equal(arrived.length, 3);
      assert.ok(gaps(arrived.map((at) => ({ at }))).every((g) => g >= 190));
    } finally {
      for (const s of sessions) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("a gRPC call that got no status from a server: UNAVAILABLE, as in the other SDKs", () => {
  /** A TCP server on a free port running `onSocket` per connection; its URL and a closer. */
  async function tcp(onSocket: (socket: import("node:net").Socket) => void) {
    const { createServer } = await import("node:net");
    const sockets: import("node:net").Socket[] = [];
    const server = createServer((s) => { sockets.push(s); s.on("error", () => {}); onSocket(s); });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }
  const cases: [string, (s: import("node:net").Socket) => void][] = [
    ["a port that closes each connection at once", (s) => s.destroy()],
    ["a port that answers garbage", (s) => s.once("data", () => s.end("HELLO, not gRPC\r\n"))],
    ["an HTTP/1.1 server", (s) => s.once("data", () =>
      s.end("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 5\r\n\r\nhello"))],
  ];
  for (const [what, onSocket] of cases) {
    it(what, async () => {
      const peer = await tcp(onSocket);
      try {
        const err = await rejects(grpcClient(peer.url, { timeoutMs: 5000 }).listVariants());
        assert.equal(err.code, "UNAVAILABLE", err.message);
        assert.equal(err.reason, "");
      } finally {
        await peer.close();
      }
    });
  }

  it("a server that goes away mid-call", async () => {
    const sessions: { destroy(): void }[] = [];
    const server = createHttp2Server()
      .on("session", (session) => { sessions.push(session); })
      .on("stream", () => { setTimeout(() => { for (const s of sessions) s.destroy(); }, 50); });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const client = grpcClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        { timeoutMs: 5000 });
      const err = await rejects(client.listVariants());
      assert.equal(err.code, "UNAVAILABLE", err.message);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps CANCELLED for a call its caller aborted", async () => {
    const peer = await tcp(() => {}); // accepts, never answers
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const err = await rejects(grpcClient(peer.url, { timeoutMs: 5000 })
        .listVariants({ signal: controller.signal }));
      assert.equal(err.code, "CANCELLED");
    } finally {
      await peer.close();
    }
  });
});

describe("a newcomer's mistakes, said in words that show the fix", () => {
  it("a host:port target, as the other SDKs take it, is refused with the URL to write", () => {
    for (const [make, target] of [[grpcClient, "127.0.0.1:50051"], [grpcClient, "localhost:50051"],
                                  [restClient, "127.0.0.1:8080"], [restClient, "localhost:8080"]] as const) {
      assert.throws(() => make(target), (err: Error) => err instanceof TypeError &&
        /takes the server's URL with its scheme, such as "http:\/\/127\.0\.0\.1:\d+"/.test(err.message) &&
        err.message.includes(`not "${target}"`), `${make.name}(${target})`);
    }
  });

  it("a timeout that is no number of milliseconds is refused, before sending, over both transports", async () => {
    // as in the Python SDK: REST threw Node's untyped ERR_OUT_OF_RANGE, gRPC failed the call
    // at once as DEADLINE_EXCEEDED (Infinity, read as "no deadline", became 1 ms)
    let sent = 0;
    const fetch = async () => { sent++; return new Response("{}", { status: 200 }); };
    for (const timeoutMs of [Number.NaN, Infinity]) {
      for (const client of [restClient("http://canasta.invalid", { fetch }), grpcClient("http://127.0.0.1:1")]) {
        await assert.rejects(client.listVariants({ timeoutMs }),
          (err: Error) => err instanceof RangeError && /timeoutMs must be a finite number of milliseconds/.test(err.message));
      }
      assert.throws(() => restClient("http://canasta.invalid", { fetch, timeoutMs }), RangeError);
      assert.throws(() => grpcClient("http://127.0.0.1:1", { timeoutMs }), RangeError);
    }
    assert.equal(sent, 0);
  });

  it("an unreachable REST gateway is named, with why it could not be reached", async () => {
    const { createServer } = await import("node:net");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve)); // a port nothing listens on
    const err = await rejects(restClient(`http://127.0.0.1:${port}`, { timeoutMs: 3000 }).listVariants());
    assert.equal(err.code, "UNAVAILABLE");
    assert.match(err.message, new RegExp(`http://127\\.0\\.0\\.1:${port}/v1/variants: .*ECONNREFUSED`));
  });
});
