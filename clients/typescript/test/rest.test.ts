// What the REST transport sends from a page of another origin, and how it refuses a request
// it cannot encode: a recording fetch only, no server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
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
