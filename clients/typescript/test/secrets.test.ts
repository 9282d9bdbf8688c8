// A client's credential stays out of what prints it: util.inspect (console.log), JSON and
// String show neither its token nor its headers, and the token still reaches every call.
// A fake transport only: no server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { CanastaClient, grpcClient } from "../src/node.js";
import { restClient } from "../src/rest.js";
import { recording } from "./recording.js";
import { CanastaError } from "../src/errors.js";

const TOKEN = "ct1.host.dev-1.SECRET-MAC";
const SEAT = "ct1.s0.dev-1.SEAT-SECRET";
const HEADER = "Bearer HEADER-SECRET";

/** Every printed form of `client`: none may hold a secret. */
function printed(client: CanastaClient): Record<string, string> {
  return {
    inspect: inspect(client, { depth: 5 }),
    "inspect showHidden": inspect(client, { depth: 5, showHidden: true }),
    json: JSON.stringify(client),
    string: String(client),
    template: `${client}`,
  };
}

function assertHidden(client: CanastaClient, ...secrets: string[]): void {
  for (const [how, text] of Object.entries(printed(client))) {
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `${how} shows ${secret}: ${text}`);
    }
  }
}

describe("a client's credential is not printed", () => {
  const makers: [string, (token?: string) => CanastaClient][] = [
    ["fake transport", (token) => new CanastaClient(recording(),
      { token, headers: { authorization: HEADER, "x-request-id": "r1" } })],
    ["grpc", (token) => grpcClient("http://127.0.0.1:1", { token, headers: { authorization: HEADER } })],
    ["rest", (token) => restClient("http://127.0.0.1:1", { token, headers: { authorization: HEADER } })],
  ];
  for (const [name, make] of makers) {
    it(`hides the token and headers of a ${name} client and of its withToken copies`, () => {
      const client = make(TOKEN);
      assertHidden(client, TOKEN, "SECRET-MAC", HEADER);
      assertHidden(client.withToken(SEAT), TOKEN, SEAT, HEADER);
      assertHidden(client.withToken(undefined), TOKEN, HEADER);
      assertHidden(make().withToken(TOKEN), TOKEN, HEADER);
      // what is not a secret still shows
      assert.match(inspect(client), /timeoutMs: 10000/);
    });
  }

  it("still sends the client's token, a copy's, a call's own, and the headers", async () => {
    const transport = recording();
    const client = new CanastaClient(transport, { token: TOKEN, headers: { "x-request-id": "r1" } });
    await client.listVariants();
    await client.withToken(SEAT).listVariants();
    await client.listVariants({ token: "" });
    await client.withToken(undefined).listVariants();
    await client.listVariants({ token: SEAT, headers: { Authorization: "Bearer other" } });
    assert.deepEqual(transport.headers, [
      { "x-request-id": "r1", authorization: `Bearer ${TOKEN}` },
      { "x-request-id": "r1", authorization: `Bearer ${SEAT}` },
      { "x-request-id": "r1" },
      { "x-request-id": "r1" },
      { "x-request-id": "r1", authorization: `Bearer ${SEAT}` },
    ]);
    assert.equal(client.withToken(SEAT).timeoutMs, client.timeoutMs);
  });
});

describe("a token that cannot be a header", () => {
  it("is refused before the transport is called, and a request id goes as x-request-id", async () => {
    const transport = recording();
    for (const token of [`${TOKEN}\n`, ` ${TOKEN}`, `${TOKEN}\u00f6`]) {
      await assert.rejects(new CanastaClient(transport, { token }).listVariants(),
        (err: Error) => err.name === "CanastaError" && !err.message.includes(TOKEN));
      await assert.rejects(new CanastaClient(transport).listVariants({ token }));
    }
    assert.equal(transport.headers.length, 0);
    await new CanastaClient(transport, { headers: { "X-Request-Id": "old" } })
      .listVariants({ requestId: "r2" });
    assert.deepEqual(transport.headers, [{ "x-request-id": "r2" }]);
  });
});

describe("a request id that cannot be a header", () => {
  it("is refused before the transport is called, INTERNAL, as the Python SDK (and Go's gRPC) do", async () => {
    // Node failed a newline over gRPC as UNKNOWN and over REST as UNAVAILABLE (the server
    // looked down), and one outside ASCII as a bare "Invalid metadata"; a space is sent
    const transport = recording();
    for (const [requestId, at] of [["r\n1", "2 (U+000A)"], ["r\r\nx-a: b", "2 (U+000D)"], ["r\u00e9", "2 (U+00E9)"]]) {
      const seen: string[] = [];
      const err = await new CanastaClient(transport).listVariants({ requestId, onRequestId: (id) => seen.push(id) })
        .then(() => assert.fail("sent"), (e: unknown) => e as CanastaError);
      assert.ok(err instanceof CanastaError, String(err));
      assert.equal(err.code, "INTERNAL");
      assert.equal(err.reason, "");
      assert.ok(err.message.includes(`the request id cannot be sent: its character ${at} is not printable ASCII`), err.message);
      assert.deepEqual(seen, []);
    }
    assert.equal(transport.headers.length, 0);
    await new CanastaClient(transport).listVariants({ requestId: "table 7/42" });
    assert.deepEqual(transport.headers, [{ "x-request-id": "table 7/42" }]);
  });
});

describe("a header that cannot be sent", () => {
  it("is refused before sending, naming the header and the character, never the value", async () => {
    // fetch's Headers, under both transports, failed it quoting the whole value (an
    // authorization header's credential too), and sent a character past U+007F mangled
    const cases: [Record<string, string>, string][] = [
      [{ authorization: "Bearer HEADER\nSECRET" }, "the header value of 'authorization' cannot be sent: its character 14 (U+000A) is not printable ASCII"],
      [{ Authorization: "Bearer HEADER-SECRET\u00f6" }, "the header value of 'authorization' cannot be sent: its character 21 (U+00F6)"],
      [{ "accept-language": "ru\u0000HEADER-SECRET" }, "the header value of 'accept-language' cannot be sent: its character 3 (U+0000)"],
      [{ "x-a b": "HEADER-SECRET" }, "the header name 'x-a b' cannot be sent: its character 4 (U+0020)"],
    ];
    const transport = recording();
    for (const [headers, said] of cases) {
      const clients = [new CanastaClient(transport, { headers }), restClient("http://127.0.0.1:1", { headers }),
                       grpcClient("http://127.0.0.1:1", { headers })];
      const calls = [...clients.map((c) => c.listVariants()), new CanastaClient(transport).listVariants({ headers }),
                     restClient("http://127.0.0.1:1").listVariants({ headers })];
      for (const pending of calls) {
        const err = await pending.then(() => assert.fail("sent"), (e: unknown) => e as CanastaError);
        assert.ok(err instanceof CanastaError, String(err));
        assert.equal(err.code, "INTERNAL");
        assert.ok(err.message.includes(said), err.message);
        assert.ok(!inspect(err, { depth: 5 }).includes("SECRET"), inspect(err));
      }
    }
    assert.equal(transport.headers.length, 0);
  });
});

describe("a server URL with a user and password", () => {
  it("is refused at once, and no message shows the userinfo", () => {
    for (const [make, url, said] of [
      [restClient, "http://user:PASS-SECRET@127.0.0.1:8080", "without a user or password"],
      [grpcClient, "http://user:PASS-SECRET@127.0.0.1:50051", "without a user or password"],
      [restClient, "https://PASS-SECRET@example.com/rules", "without a user or password"],
      [restClient, "user:PASS-SECRET@127.0.0.1:8080", "with its scheme"],
      [grpcClient, "user:PASS-SECRET@127.0.0.1:50051", "with its scheme"],
    ] as const) {
      assert.throws(() => make(url), (err: Error) => err instanceof TypeError && err.message.includes(said) &&
        err.message.includes("***@") && !inspect(err).includes("PASS-SECRET"), `${make.name}: ${url}`);
    }
  });
});
