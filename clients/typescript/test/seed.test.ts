// A deal without a seed is sent with a random 64-bit one: unset on the wire a seed is 0,
// and every such game would be one deal anybody can replay. A seed given (0 too) is sent
// as it is. A fake transport only: no server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { CanastaClient } from "../src/node.js";
import { DealRequestSchema } from "../src/gen/canasta/v1/engine_service_pb.js";
import { recording } from "./recording.js";

/** The seeds of the deals a recording transport was sent. */
function seeds(inputs: unknown[]): unknown[] {
  return inputs.map((input) => (input as { seed?: bigint }).seed);
}

describe("the seed of a deal", () => {
  it("is random and 64-bit when left out", async () => {
    const transport = recording();
    const client = new CanastaClient(transport);
    for (let i = 0; i < 4; i++) await client.deal({ variant: "classic", players: 2 });
    const sent = seeds(transport.inputs);
    assert.equal(new Set(sent).size, 4);
    assert.ok(sent.every((s) => typeof s === "bigint" && s > 0n && s < 2n ** 64n), String(sent));
    assert.ok(sent.some((s) => typeof s === "bigint" && s >= 2n ** 40n));
  });
  it("is sent as given, 0 and the largest too", async () => {
    const transport = recording();
    const client = new CanastaClient(transport);
    await client.deal({ variant: "classic", players: 2, seed: 0n });
    await client.deal({ variant: "classic", players: 2, seed: 2n ** 64n - 1n });
    await client.deal(create(DealRequestSchema, { variant: "classic", players: 2, seed: 7n }));
    assert.deepEqual(seeds(transport.inputs), [0n, 2n ** 64n - 1n, 7n]);
  });
});
