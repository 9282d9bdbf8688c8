// What the REST transport sends from a page of another origin, and how it refuses a request
// it cannot encode: a recording fetch only, no server.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { restClient } from "../src/rest.js";
import { rejects } from "./rejects.js";

/** A REST client whose fetch records each request's headers and answers `{}`. */
function recorded() {
  const sent: { method: string; headers: Headers }[] = [];
  const client = restClient("http://canasta.invalid", {
    fetch: async (_url, init) => {
      sent.push({ method: String(init?.method), headers: new Headers(init?.headers) });
      return new Response("{}", { status: 200 });
    },
  });
  return { client, sent };
}

describe("the REST transport in a page", () => {
  it("declares a JSON body only where it sends one, so a GET needs no CORS preflight", async () => {
    const { client, sent } = recorded();
    await client.listVariants();
    await client.scoreHand(new Uint8Array([1, 2, 3]));
    assert.deepEqual(sent.map((s) => s.method), ["GET", "POST"]);
    // GET /v1/variants: only CORS-safelisted headers (a Content-Type of application/json
    // is none, and made the browser send a preflight first)
    assert.equal(sent[0]!.headers.get("content-type"), null);
    assert.equal(sent[0]!.headers.get("accept"), "application/json");
    assert.equal(sent[1]!.headers.get("content-type"), "application/json");
  });

  it("refuses a request it cannot encode before sending, not as an unreachable server", async () => {
    const { client, sent } = recorded();
    // the snapshot as the host's JSON carries it (base64 text), not its bytes
    const err = await rejects(client.scoreHand("Q1MC" as unknown as Uint8Array));
    assert.equal(err.code, "INTERNAL");
    assert.match(err.message, /snapshot/);
    assert.doesNotMatch(err.message, /canasta\.invalid/);
    assert.equal(sent.length, 0);
  });
});

/** A server on a free loopback port answering each request with `answer`; it closes after the file. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(answer);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  after(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("a redirect from the gateway's address", () => {
  // The gateway never redirects: one comes from a proxy or a host that is not the gateway.
  // fetch followed it (307 and 308 with the body), so the call's snapshot, move and headers
  // went to whatever the Location named; Node dropped the Authorization only for another
  // origin, and kept it for another path of the same one.
  for (const where of ["another origin", "another path of the same origin"]) {
    it(`is not followed to ${where}: the call fails UNAVAILABLE, naming the redirect`, async () => {
      const reached: string[] = [];
      const elsewhere = await serve((req, res) => {
        reached.push(`${req.url} ${req.headers.authorization ?? "no credential"}`);
        res.setHeader("content-type", "application/json");
        res.end("{}");
      });
      const gateway = await serve((req, res) => {
        if (req.url === "/elsewhere") {
          reached.push(`${req.url} ${req.headers.authorization ?? "no credential"}`);
          res.end("{}");
          return;
        }
        res.statusCode = 307;
        res.setHeader("location", where === "another origin" ? `${elsewhere}/v1/apply-move` : "/elsewhere");
        res.end();
      });
      const client = restClient(gateway, { token: "ct1.s0.dev-1.SEAT-SECRET", headers: { "x-api-key": "STUDIO-KEY" } });
      const err = await rejects(client.play(new Uint8Array([1, 2, 3]), "draw"));
      assert.equal(err.code, "UNAVAILABLE");
      assert.match(err.message, /redirect/);
      assert.doesNotMatch(err.message, /SEAT-SECRET|STUDIO-KEY/);
      assert.deepEqual(reached, []);
    });
  }
});
