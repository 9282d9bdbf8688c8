// The TypeScript SDK against a live server: native gRPC and REST (fetch), over real sockets.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it, mock } from "node:test";
import { fileURLToPath } from "node:url";
import { EventType, MAX_TIMEOUT_MS, VERSION, firstProgressMove, grpcClient, move, type CanastaClient } from "../src/node.js";
import { restClient } from "../src/rest.js";
import { rejects } from "./rejects.js";

const GRPC = process.env["CANASTA_GRPC_TARGET"];
const REST = process.env["CANASTA_REST_URL"];
if (!GRPC || !REST) throw new Error("set CANASTA_GRPC_TARGET and CANASTA_REST_URL (make sdk-test does)");
const GRPC_URL = `http://${GRPC}`;
const PKG = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const ILLEGAL = ["WRONG_PHASE", "NOT_LISTED", "CARDS_NOT_IN_HAND"];
const MAX_MOVES = 2000;

const clients: [string, () => CanastaClient][] = [
  ["grpc", () => grpcClient(GRPC_URL, { timeoutMs: 10_000 })],
  ["rest", () => restClient(REST, { timeoutMs: 10_000 })],
];

for (const [name, make] of clients) {
  describe(`over ${name}`, () => {
    const client = make();

    it("takes a timeout over MAX_TIMEOUT_MS (a week) as a week", async () => {
      // as in every SDK: Node's timers took 2 ** 31 ms or more as 1 ms (DEADLINE_EXCEEDED at
      // once), and REST's AbortSignal.timeout threw ERR_OUT_OF_RANGE from 2 ** 32 ms
      for (const timeoutMs of [2 ** 31, 2 ** 32, 1e300]) {
        assert.ok((await client.listVariants({ timeoutMs })).variants.length > 0);
        const patient = name === "grpc" ? grpcClient(GRPC_URL, { timeoutMs }) : restClient(REST, { timeoutMs });
        assert.ok((await patient.listVariants()).variants.length > 0);
      }
      assert.equal(MAX_TIMEOUT_MS, 7 * 24 * 3600 * 1000);
    });

    it("plays a whole classic four-handed hand, scores it and deals the next", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 11n });
      assert.equal(deal.header?.seq, 0n);
      assert.ok(deal.hostToken.startsWith("ct1.host."), deal.hostToken);
      assert.deepEqual(deal.seatTokens.map((t) => t.split(".")[1]), ["s0", "s1", "s2", "s3"]);
      const host = client.withToken(deal.hostToken);
      const gameId = deal.header!.gameId;
      let snapshot = deal.snapshot;
      let seq = 0n;
      let played;
      for (let i = 0; i < MAX_MOVES; i++) {
        const legal = await host.legalMoves(snapshot);
        const chosen = firstProgressMove(legal.moves);
        played = await host.applyMove(snapshot, chosen, { expectedSeq: seq, seat: legal.seat, expectedGameId: gameId });
        assert.equal(played.move?.text, chosen.text);
        assert.equal(played.header?.seq, seq + 1n);
        assert.equal(played.header?.gameId, deal.header?.gameId);
        snapshot = played.snapshot;
        seq += 1n;
        if (played.handOver) break;
      }
      assert.ok(played?.handOver, `the hand did not end in ${MAX_MOVES} moves`);
      const score = await host.scoreHand(snapshot);
      assert.ok(score.handOver);
      assert.deepEqual(score.sides.map((s) => s.team).sort(), [0, 1]);
      for (const side of score.sides) {
        const b = side.breakdown!;
        assert.equal(side.total, b.base + b.canastaBonus + b.goingOut + b.redThreePoints - b.inHand - b.penalties);
      }
      if (!played!.gameOver) {
        const next = await host.nextDeal(snapshot, { expectedSeq: seq, expectedGameId: gameId });
        assert.equal(next.header?.seq, seq + 1n);
        assert.ok(next.events.some((e) => e.type === EventType.HAND_DEALT));
        // the same game, the same credentials (in the host's answer only)
        assert.equal(next.hostToken, deal.hostToken);
        assert.deepEqual(next.seatTokens, deal.seatTokens);
      }
    });

    it("views a seat and plays a move from its text", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 3n, viewSeat: 0 });
      assert.deepEqual(deal.views.map((v) => v.seat), [0]);
      const token = deal.hostToken;
      const mine = (await client.view(deal.snapshot, 0, { token })).views;
      assert.equal(mine.length, 1);
      assert.equal(mine[0]!.hand.length, 11);
      const played = await client.play(deal.snapshot, "draw", { viewSeat: 0 }, { token });
      assert.equal(played.move?.text, "draw");
      assert.equal(played.move?.kind.case, "draw");
      assert.equal(move("draw").text, "draw");
    });

    it("reports a tampered snapshot as SNAPSHOT_INVALID", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const bad = new Uint8Array(deal.snapshot);
      bad[bad.length >> 1]! ^= 1;
      const err = await rejects(client.legalMoves(bad, { token: deal.hostToken }));
      assert.equal(err.code, "INVALID_ARGUMENT");
      assert.equal(err.reason, "SNAPSHOT_INVALID");
    });

    it("reports an illegal move with the engine's reason", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const err = await rejects(client.play(deal.snapshot, "discard 4D", {}, { token: deal.hostToken }));
      assert.equal(err.code, "FAILED_PRECONDITION");
      assert.ok(ILLEGAL.includes(err.reason), err.reason);
      assert.ok(err.isRuleViolation);
    });

    it("reports a stale snapshot and a bad request", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const stale = await rejects(client.play(deal.snapshot, "draw", { expectedSeq: 7n }, { token: deal.hostToken }));
      assert.equal(stale.code, "ABORTED");
      assert.equal(stale.reason, "SNAPSHOT_STALE");
      const bad = await rejects(client.deal({ variant: "classic", players: 9 }));
      assert.equal(bad.reason, "BAD_PLAYER_COUNT");
      assert.ok(bad.fieldViolations.some((v) => v.field === "players"));
    });

    it("shows a seat token its own hand only, and the host every hand", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 21n });
      const every = (await client.withToken(deal.hostToken).view(deal.snapshot)).views;
      assert.deepEqual(every.map((v) => v.seat), [0, 1, 2, 3]);
      assert.ok(every.every((v) => v.hand.length === 11));
      const seat1 = client.withToken(deal.seatTokens[1]);
      const views = (await seat1.view(deal.snapshot)).views;
      assert.deepEqual(views.map((v) => v.seat), [1]);
      assert.deepEqual(views[0]!.hand, every[1]!.hand);
      assert.deepEqual(views[0]!.handSizes, [11, 11, 11, 11]);
      const pub = (await seat1.view(deal.snapshot, -1)).views;
      assert.deepEqual(pub.map((v) => [v.seat, v.hand.length]), [[-1, 0]]);
      const err = await rejects(seat1.view(deal.snapshot, 0));
      assert.equal(err.code, "PERMISSION_DENIED");
      assert.equal(err.reason, "SEAT_NOT_ALLOWED");
      if (name === "rest") assert.equal(err.httpStatus, 403);
    });

    it("lets a seat token move for its seat only", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 21n });
      const turn = (await client.legalMoves(deal.snapshot, { token: deal.hostToken })).seat;
      const other = client.withToken(deal.seatTokens[(turn + 1) % 4]);
      const err = await rejects(other.play(deal.snapshot, "draw", { seat: turn }));
      assert.equal(err.code, "PERMISSION_DENIED");
      assert.equal(err.reason, "SEAT_NOT_ALLOWED");
      const waiting = await other.legalMoves(deal.snapshot);
      assert.equal(waiting.seat, turn);
      assert.deepEqual(waiting.moves, []);
      const played = await client.withToken(deal.seatTokens[turn]).play(deal.snapshot, "draw");
      assert.equal(played.seat, turn);
      assert.deepEqual(played.views.map((v) => v.seat), [turn]);
    });

    it("refuses LegalMoves and ApplyMove without a token", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 21n });
      for (const call of [() => client.legalMoves(deal.snapshot), () => client.play(deal.snapshot, "draw"),
        () => client.withToken(deal.hostToken).legalMoves(deal.snapshot, { token: "" })]) {
        const err = await rejects(call());
        assert.equal(err.code, "UNAUTHENTICATED");
        assert.equal(err.reason, "CREDENTIAL_REQUIRED");
        if (name === "rest") assert.equal(err.httpStatus, 401);
      }
      const pub = (await client.view(deal.snapshot)).views; // a spectator sees the public table
      assert.deepEqual(pub.map((v) => [v.seat, v.hand.length]), [[-1, 0]]);
    });

    it("refuses a token of another game", async () => {
      const mine = await client.deal({ variant: "classic", players: 4, seed: 21n });
      const theirs = await client.deal({ variant: "classic", players: 4, seed: 21n });
      for (const token of [theirs.hostToken, theirs.seatTokens[0]!]) {
        for (const call of [() => client.legalMoves(mine.snapshot, { token }),
          () => client.play(mine.snapshot, "draw", {}, { token }), () => client.view(mine.snapshot, undefined, { token })]) {
          const err = await rejects(call());
          assert.equal(err.code, "UNAUTHENTICATED");
          assert.equal(err.reason, "CREDENTIAL_INVALID");
        }
      }
    });

    it("sends a call's token instead of the client's", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 21n });
      const seat2 = client.withToken(deal.seatTokens[2]);
      assert.deepEqual((await seat2.view(deal.snapshot)).views.map((v) => v.seat), [2]);
      const every = (await seat2.view(deal.snapshot, undefined, { token: deal.hostToken })).views;
      assert.deepEqual(every.map((v) => v.seat), [0, 1, 2, 3]);
      const other = name === "grpc"
        ? grpcClient(GRPC_URL, { token: deal.hostToken })
        : restClient(REST, { token: deal.hostToken, headers: { Authorization: "Bearer ct1.host.x.y" } });
      assert.equal((await other.view(deal.snapshot)).views.length, 4);
    });

    it("refuses a token that cannot be a header before sending it, as every SDK does", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 21n });
      const host = deal.hostToken;
      for (const token of [`${host}\n`, `${host}\r\nx-a: b`, ` ${host}`, `${host} `,
        `${host.slice(0, 5)}\t${host.slice(5)}`, `${host}\u00f6`]) {
        for (const call of [client.view(deal.snapshot, undefined, { token }),
          client.withToken(token).view(deal.snapshot), client.withToken(token).listVariants()]) {
          const err = await rejects(call);
          assert.equal(err.code, "INTERNAL", err.message);
          assert.equal(err.reason, "");
          assert.match(err.message, /the token cannot be sent: its character \d+ \(U\+[0-9A-F]{4}\)/);
          assert.ok(!err.message.includes(host), "the message shows the token");
        }
      }
    });

    it("sends a call's request id and reads the server's back, answered or refused", async () => {
      const seen: string[] = [];
      const onRequestId = (id: string) => seen.push(id);
      await client.listVariants({ requestId: `ts-${name}-1`, onRequestId });
      await client.listVariants({ onRequestId });
      const err = await rejects(client.view(new Uint8Array([1, 2, 3]), undefined,
        { requestId: `ts-${name}-2`, onRequestId }));
      assert.equal(err.requestId, `ts-${name}-2`);
      const made = await rejects(client.view(new Uint8Array([1, 2, 3])));
      assert.ok(made.requestId, "a refusal without a request id sent has the server's");
      assert.equal(seen.length, 3);
      assert.equal(seen[0], `ts-${name}-1`);
      assert.ok(seen[1] && seen[1] !== seen[0], "the server makes one up when none is sent");
      assert.equal(seen[2], `ts-${name}-2`);
    });

    it("checks expectedGameId", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 21n });
      const other = await client.deal({ variant: "classic", players: 4, seed: 21n });
      const host = client.withToken(deal.hostToken);
      const err = await rejects(host.play(deal.snapshot, "draw", { expectedGameId: other.header!.gameId }));
      assert.equal(err.code, "ABORTED");
      assert.equal(err.reason, "SNAPSHOT_WRONG_GAME");
      const played = await host.play(deal.snapshot, "draw", { expectedGameId: deal.header!.gameId });
      assert.equal(played.header?.gameId, deal.header?.gameId);
    });

    it("suggests a move to a seat's token, for its own seat only", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 3n });
      const turn = (await client.legalMoves(deal.snapshot, { token: deal.hostToken })).seat;
      const mover = client.withToken(deal.seatTokens[turn]);
      const hint = await mover.suggestMove(deal.snapshot, { level: "greedy", seed: 1n });
      assert.equal(hint.seat, turn);
      assert.equal(hint.level, "greedy");
      const again = await mover.suggestMove(deal.snapshot, { level: "greedy", seed: 1n });
      assert.equal(again.move?.text, hint.move?.text);
      const played = await mover.applyMove(deal.snapshot, hint.move!);
      assert.equal(played.move?.text, hint.move?.text);
      const other = client.withToken(deal.seatTokens[(turn + 1) % 4]);
      const err = await rejects(other.suggestMove(deal.snapshot, { seat: turn }));
      assert.equal(err.code, "PERMISSION_DENIED");
      assert.equal(err.reason, "SEAT_NOT_ALLOWED");
    });

    it("imports a position and exports it with the host's token", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const { position } = await client.exportPosition(deal.snapshot, { token: deal.hostToken });
      const imported = await client.importPosition({ position });
      assert.equal(imported.header?.imported, true);
      assert.equal(imported.header?.seq, 0n);
      assert.equal(imported.seatTokens.length, 4);
      const again = await client.withToken(imported.hostToken).exportPosition(imported.snapshot);
      assert.equal(again.position, position);
    });

    it("lists a long move list a page at a time", async () => {
      // a May I? hand with sets of any size (MI-CON-2) lists more moves than one page holds
      const position = ["mayi-position 1", "variant: may_i", "players: 3",
        "options: contract_exact_sizes=false", "hand: 3", "phase: meld", "turn: 0", "drew: stock",
        "buys: 3 0 0", "hand0: 4S 4S 4H 4H 4D 4D 4C 4C 5S 5S 5H 5H 5D 5D 5C 5C 8S",
        "hand1: *1", "hand2: *1", "stock: *", ""].join("\n");
      const imported = await client.importPosition({ position });
      const host = client.withToken(imported.hostToken);
      const first = await host.legalMoves(imported.snapshot);
      assert.equal(first.moves.length, 1000);
      assert.ok(first.totalSize > 1000 && first.nextPageToken !== "");
      const every = await host.allLegalMoves(imported.snapshot);
      assert.equal(every.length, first.totalSize);
      assert.deepEqual(every.slice(0, 1000).map((m) => m.text), first.moves.map((m) => m.text));
      const small = await host.legalMoves(imported.snapshot,
        { pageSize: 3, pageToken: first.nextPageToken });
      assert.deepEqual(small.moves.map((m) => m.text), every.slice(1000, 1003).map((m) => m.text));
    });

    it("exports the game record for the host and a seat", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      const host = client.withToken(deal.hostToken);
      let { record } = await host.exportRecord(deal.snapshot);
      const played = await host.play(deal.snapshot, "draw");
      record += `${played.seat} ${played.move?.text}\n`;
      const full = await host.exportRecord(played.snapshot, record);
      assert.ok(full.record.startsWith("canasta-record 1\n") && full.record.includes("seed: 5"));
      const own = await client.exportRecord(played.snapshot, record, {},
        { token: deal.seatTokens[1] });
      assert.ok(own.record.includes("view: 1") && !own.record.includes("seed:"));
      const asked = await host.exportRecord(played.snapshot, record, { viewSeat: 1 });
      assert.equal(asked.record, own.record);
    });

    it("refuses a seat's token the export", async () => {
      const deal = await client.deal({ variant: "classic", players: 4, seed: 5n });
      for (const token of deal.seatTokens) {
        const err = await rejects(client.exportPosition(deal.snapshot, { token }));
        assert.equal(err.code, "PERMISSION_DENIED");
        assert.equal(err.reason, "SEAT_NOT_ALLOWED");
        if (name === "rest") assert.equal(err.httpStatus, 403);
      }
    });

    it("enforces deadlines", async () => {
      // a server that holds every call unanswered: the client's timeout is the deadline
      // it sends (gRPC: the grpc-timeout header) or arms (REST: the abort timer), and it
      // ends the call
      const timers = mock.method(AbortSignal, "timeout");
      const seen: string[] = [];
      const held: { destroy(): void }[] = [];
      const silent = name === "grpc"
        ? createHttp2Server()
          .on("session", (session) => { held.push(session); })
          .on("stream", (_, headers) => { seen.push(String(headers["grpc-timeout"])); })
        : createHttpServer((req) => { held.push(req.socket); });
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const { port } = silent.address() as AddressInfo;
      try {
        const slow = name === "grpc"
          ? grpcClient(`http://127.0.0.1:${port}`, { timeoutMs: 300 })
          : restClient(`http://127.0.0.1:${port}`, { timeoutMs: 300 });
        const err = await rejects(slow.listVariants());
        assert.equal(err.code, "DEADLINE_EXCEEDED");
        assert.equal(err.reason, "DEADLINE_EXCEEDED");
        if (name === "grpc") assert.deepEqual(seen, ["300m"]);
        else assert.deepEqual(timers.mock.calls.map((c) => c.arguments[0]), [300]);
      } finally {
        timers.mock.restore();
        for (const h of held) h.destroy();
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
