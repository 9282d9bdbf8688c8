// The retry hint of a refusal for load (google.rpc.RetryInfo, REST's Retry-After), decoded
// from real status bytes and real AIP-193 bodies: no server needed.
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

describe("retryAfterMs over REST (AIP-193 body, Retry-After)", () => {
  it("reads the body's RetryInfo of \"1s\" and \"1.500s\", and is undefined without one", () => {
    const one = errorFromRestBody(429, restBody("1s"));
    assert.equal(one.reason, "TOO_MANY_CALLS");
    assert.equal(one.retryAfterMs, 1000);
    assert.equal(errorFromRestBody(429, restBody("1.500s")).retryAfterMs, 1500);
    assert.equal(errorFromRestBody(429, restBody()).retryAfterMs, undefined);
    assert.equal(errorFromRestBody(503, undefined).retryAfterMs, undefined);
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
