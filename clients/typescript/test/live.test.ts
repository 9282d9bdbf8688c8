// The TypeScript SDK against a live server: native gRPC and REST (fetch), over real sockets.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CanastaError, EventType, VERSION, firstProgressMove, grpcClient, move, type CanastaClient } from "../src/node.js";
import { restClient } from "../src/rest.js";

const GRPC = process.env["CANASTA_GRPC_TARGET"];
const REST = process.env["CANASTA_REST_URL"];
if (!GRPC || !REST) throw new Error("set CANASTA_GRPC_TARGET and CANASTA_REST_URL (make sdk-test does)");
const GRPC_URL = `http://${GRPC}`;
const PKG = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const ILLEGAL = ["WRONG_PHASE", "NOT_LISTED", "CARDS_NOT_IN_HAND"];
const MAX_MOVES = 2000;

async function rejects(p: Promise<unknown>): Promise<CanastaError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CanastaError, `not a CanastaError: ${String(err)}`);
    return err;
  }
  assert.fail("the call did not fail");
}

function readmeBlocks(): string[] {
  const text = readFileSync(join(PKG, "README.md"), "utf8");
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe("README examples", () => {
  const blocks = readmeBlocks();
  it("has a Node (gRPC) and a browser (REST) example", () => assert.equal(blocks.length, 2));
  for (const [i, block] of blocks.entries()) {
    it(`example ${i + 1} plays a hand and prints the score`, () => {
      const source = block
        .replaceAll("http://127.0.0.1:50051", GRPC_URL)
        .replaceAll("http://127.0.0.1:8080", REST);
      // run it as a module inside the package, so "@canasta-rules/client" resolves to this build
      const dir = mkdtempSync(join(PKG, "dist", "readme-"));
      const file = join(dir, "example.mjs");
      writeFileSync(file, source);
      const out = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 60_000 });
      const teams = out.trim().split("\n").map((line) => line.split(":")[0]);
      assert.deepEqual(teams, ["team 0", "team 1"]);
    });
  }
});

const clients: [string, () => CanastaClient][] = [
  ["grpc", () => grpcClient(GRPC_URL, { timeoutMs: 10_000 })],
  ["rest", () => restClient(REST, { timeoutMs: 10_000 })],
];

for (const [name, make] of clients) {
  describe(`over ${name}`, () => {
    const client = make();

    it("plays a whole classic four-handed hand, scores it and deals the next", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 11n });
      assert.equal(deal.header?.seq, 0n);
      let snapshot = deal.snapshot;
      let seq = 0n;
      let played;
      for (let i = 0; i < MAX_MOVES; i++) {
        const legal = await client.legalMoves(snapshot);
        const chosen = firstProgressMove(legal.moves);
        played = await client.applyMove(snapshot, chosen, { expectedSeq: seq, seat: legal.seat });
        assert.equal(played.move?.text, chosen.text);
        assert.equal(played.header?.seq, seq + 1n);
        assert.equal(played.header?.gameId, deal.header?.gameId);
        snapshot = played.snapshot;
        seq += 1n;
        if (played.handOver) break;
      }
      assert.ok(played?.handOver, `the hand did not end in ${MAX_MOVES} moves`);
      const score = await client.scoreHand(snapshot);
      assert.ok(score.handOver);
      assert.deepEqual(score.sides.map((s) => s.team).sort(), [0, 1]);
      for (const side of score.sides) {
        const b = side.breakdown!;
        assert.equal(side.total, b.base + b.canastaBonus + b.goingOut + b.redThreePoints - b.inHand - b.penalties);
      }
      if (!played!.gameOver) {
        const next = await client.nextDeal(snapshot, { expectedSeq: seq });
        assert.equal(next.header?.seq, seq + 1n);
        assert.ok(next.events.some((e) => e.type === EventType.HAND_DEALT));
      }
    });

    it("views a seat and plays a move from its text", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 3n, viewSeat: 0 });
      assert.deepEqual(deal.views.map((v) => v.seat), [0]);
      const mine = (await client.view(deal.snapshot, 0)).views;
      assert.equal(mine.length, 1);
      assert.equal(mine[0]!.hand.length, 11);
      const played = await client.play(deal.snapshot, "draw", { viewSeat: 0 });
      assert.equal(played.move?.text, "draw");
      assert.equal(played.move?.kind.case, "draw");
      assert.equal(move("draw").text, "draw");
    });

    it("reports a tampered snapshot as SNAPSHOT_INVALID", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const bad = new Uint8Array(deal.snapshot);
      bad[bad.length >> 1]! ^= 1;
      const err = await rejects(client.legalMoves(bad));
      assert.equal(err.code, "INVALID_ARGUMENT");
      assert.equal(err.reason, "SNAPSHOT_INVALID");
    });

    it("reports an illegal move with the engine's reason", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const err = await rejects(client.play(deal.snapshot, "discard 4D"));
      assert.equal(err.code, "FAILED_PRECONDITION");
      assert.ok(ILLEGAL.includes(err.reason), err.reason);
      assert.ok(err.isRuleViolation);
    });

    it("reports a stale snapshot and a bad request", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const stale = await rejects(client.play(deal.snapshot, "draw", { expectedSeq: 7n }));
      assert.equal(stale.code, "ABORTED");
      assert.equal(stale.reason, "SNAPSHOT_STALE");
      const bad = await rejects(client.deal({ variant: "classic", players: 9 }));
      assert.equal(bad.reason, "BAD_PLAYER_COUNT");
      assert.ok(bad.fieldViolations.some((v) => v.field === "players"));
    });

    it("enforces deadlines", async () => {
      // a server that accepts the connection and never answers: the deadline ends the call
      const sockets: Socket[] = [];
      const silent = createServer((socket) => { sockets.push(socket); });
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const { port } = silent.address() as AddressInfo;
      try {
        const slow = name === "grpc"
          ? grpcClient(`http://127.0.0.1:${port}`, { timeoutMs: 300 })
          : restClient(`http://127.0.0.1:${port}`, { timeoutMs: 300 });
        const started = Date.now();
        const err = await rejects(slow.listVariants());
        assert.equal(err.code, "DEADLINE_EXCEEDED");
        assert.equal(err.reason, "DEADLINE_EXCEEDED");
        assert.ok(Date.now() - started < 10_000);
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });
  });
}

describe("package", () => {
  it("has the version of clients/VERSION", () => {
    const pkg = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8")) as { version: string };
    assert.equal(VERSION, readFileSync(join(PKG, "..", "VERSION"), "utf8").trim());
    assert.equal(pkg.version, VERSION);
  });

  it("reports an unreachable server as UNAVAILABLE", async () => {
    const err = await rejects(grpcClient("http://127.0.0.1:1", { timeoutMs: 3000 }).listVariants());
    assert.equal(err.code, "UNAVAILABLE");
    const viaRest = await rejects(restClient("http://127.0.0.1:1", { timeoutMs: 3000 }).listVariants());
    assert.equal(viaRest.code, "UNAVAILABLE");
  });
});
