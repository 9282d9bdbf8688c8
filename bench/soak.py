"""Soak test: a bounded mixed load on a real server, then its errors and memory.

Starts ``python -m service`` (default settings, a random key, free ports on
loopback, access log off) and keeps ``--in-flight`` calls in flight (32: half
over gRPC, half over REST) for ``--seconds`` (60) after ``--warmup`` seconds.
Each caller plays games through the API like a host (Deal, LegalMoves, ApplyMove
with ``expected_seq``, ScoreHand, NextDeal, a new Deal when the game is over)
and mixes in every other RPC (GetView, SuggestMove, ExportPosition,
ImportPosition, ListVariants) and bad requests with a known answer: tampered and
unknown-version snapshots, a move out of turn, a stale ``expected_seq``, an
unknown variant, unreadable notation, bytes that are no message (gRPC),
malformed JSON and oversized bodies (REST), oversized messages and 1 ms
deadlines (gRPC).

Every answer is classified: the expected one for its kind (OK for a legal call,
the known refusal for a bad one) or unexpected (anything else: a 5xx,
INTERNAL/UNKNOWN, a transport error, a legal call refused). The server's
resident memory (VmRSS) is read at the start of the measured window (after the
warm-up) and at its end. At the end the server gets SIGTERM and must exit 0,
and its log must hold no error line. Prints a table, writes
``bench/results/soak.json`` (``--out``) and exits 1 unless there were no
unexpected answers and RSS grew less than ``--max-rss-growth`` (10%).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from serve import start_service  # noqa: E402

from service.keys import new_key_entry  # noqa: E402
from service.pb import SERVICE_NAME, api, game  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "soak.json"
ROUTES = {
    "ListVariants": ("GET", "/v1/variants"), "Deal": ("POST", "/v1/deal"),
    "LegalMoves": ("POST", "/v1/legal-moves"), "ApplyMove": ("POST", "/v1/apply-move"),
    "ScoreHand": ("POST", "/v1/score-hand"), "GetView": ("POST", "/v1/view"),
    "NextDeal": ("POST", "/v1/next-deal"), "ImportPosition": ("POST", "/v1/position:import"),
    "ExportPosition": ("POST", "/v1/position:export"),
    "SuggestMove": ("POST", "/v1/suggest-move"),
}
GAMES = [("classic", 4), ("classic", 2), ("classic", 3), ("classic", 6), ("samba", 4),
         ("bolivia", 4), ("bolivia_sevens", 4), ("may_i", 4)]
MAX_STEPS = 400  # moves per game before a caller deals a new one
LIMIT = 65536  # CANASTA_MAX_MESSAGE_BYTES (the default)
# (kind, weight): "step" is the host's next call in its game; the rest are mixed in
KINDS = [("step", 40), ("score", 5), ("view", 5), ("suggest", 5), ("export", 3),
         ("import", 2), ("variants", 2), ("tampered", 4), ("version", 2), ("out_of_turn", 4),
         ("stale", 4), ("bad_variant", 2), ("bad_notation", 2), ("garbage", 3),
         ("oversized", 1), ("short_deadline", 2)]
Outcome = str  # "OK" or "CODE REASON"


def _ok(outcome: Outcome) -> bool:
    return outcome == "OK"


# What each kind of call must answer (all other answers are unexpected).
EXPECTED: dict[str, Callable[[Outcome], bool]] = {
    **{k: _ok for k in ("step", "score", "view", "suggest", "export", "import", "variants",
                        "deal")},
    "tampered": lambda o: o == "INVALID_ARGUMENT SNAPSHOT_INVALID",
    "version": lambda o: o == "FAILED_PRECONDITION SNAPSHOT_VERSION_UNSUPPORTED",
    "out_of_turn": lambda o: o.startswith("FAILED_PRECONDITION ") and o.split()[1].isupper(),
    "stale": lambda o: o == "ABORTED SNAPSHOT_STALE",
    "bad_variant": lambda o: o == "INVALID_ARGUMENT UNKNOWN_VARIANT",
    "bad_notation": lambda o: o == "INVALID_ARGUMENT BAD_NOTATION",
    "garbage": lambda o: o == "INVALID_ARGUMENT REQUEST_INVALID",
    "oversized": lambda o: o in ("RESOURCE_EXHAUSTED REQUEST_TOO_LARGE",  # REST: 413
                                 "RESOURCE_EXHAUSTED -"),  # gRPC: refused before the service
    "short_deadline": lambda o: o in ("OK", "DEADLINE_EXCEEDED -",
                                      "DEADLINE_EXCEEDED DEADLINE_EXCEEDED"),
}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


# --- transports ---------------------------------------------------------------------


class Grpc:
    name = "grpc"

    def __init__(self, port: int) -> None:
        self.channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
        self.raw = {m: self.channel.unary_unary(f"/{SERVICE_NAME}/{m}") for m in ROUTES}

    async def call(self, method: str, request: Message,
                   timeout: float = 30.0) -> tuple[Outcome, Message | None]:
        return await self.send(method, request.SerializeToString(), timeout)

    async def send(self, method: str, data: bytes,
                   timeout: float = 30.0) -> tuple[Outcome, Message | None]:
        try:
            answer = await self.raw[method](data, timeout=timeout)
        except grpc.aio.AioRpcError as err:
            return f"{err.code().name} {_grpc_reason(err)}", None
        out = getattr(api, f"{method}Response")()
        out.ParseFromString(answer)
        return "OK", out

    async def close(self) -> None:
        await self.channel.close()


def _grpc_reason(err: grpc.aio.AioRpcError) -> str:
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return "-"


class Rest:
    """One keep-alive HTTP/1.1 connection (Content-Length framing, as uvicorn answers)."""

    name = "rest"

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def _exchange(self, raw: bytes, fresh: bool = False) -> tuple[int, bytes]:
        if fresh:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        else:
            if self.conn is None:
                self.conn = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.conn
        try:
            writer.write(raw)
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = dict(ln.split(":", 1) for ln in lines[1:] if ":" in ln)
            headers = {k.strip().lower(): v.strip() for k, v in headers.items()}
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            if fresh or headers.get("connection", "").lower() == "close":
                writer.close()
                if not fresh:
                    self.conn = None
            return status, body
        except BaseException:
            writer.close()
            if not fresh:
                self.conn = None
            raise

    async def post(self, path: str, body: bytes, verb: str = "POST") -> tuple[int, bytes]:
        raw = (f"{verb} {path} HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
        return await self._exchange(raw)

    async def call(self, method: str, request: Message,
                   timeout: float = 30.0) -> tuple[Outcome, Message | None]:
        verb, path = ROUTES[method]
        body = b"" if verb == "GET" else json_format.MessageToJson(request, indent=None).encode()
        return self.outcome(method, *await asyncio.wait_for(self.post(path, body, verb), timeout))

    async def send(self, method: str, body: bytes,
                   timeout: float = 30.0) -> tuple[Outcome, Message | None]:
        status_body = await asyncio.wait_for(self.post(ROUTES[method][1], body), timeout)
        return self.outcome(method, *status_body)

    async def oversized(self, method: str, size: int) -> tuple[Outcome, Message | None]:
        """A request that declares a body over the limit, on a connection of its own."""
        raw = (f"POST {ROUTES[method][1]} HTTP/1.1\r\nHost: soak\r\n"
               f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n").encode()
        return self.outcome(method, *await asyncio.wait_for(self._exchange(raw, True), 30))

    @staticmethod
    def outcome(method: str, status: int, body: bytes) -> tuple[Outcome, Message | None]:
        if status == 200:
            out = getattr(api, f"{method}Response")()
            json_format.Parse(body, out)
            return "OK", out
        try:
            error = json.loads(body)["error"]
            reasons = [d["reason"] for d in error["details"]
                       if d["@type"].endswith("google.rpc.ErrorInfo")]
            return f"{error['status']} {reasons[0] if reasons else '-'}", None
        except (ValueError, KeyError, IndexError, TypeError):
            return f"HTTP_{status} -", None

    async def close(self) -> None:
        if self.conn is not None:
            self.conn[1].close()


# --- callers ---------------------------------------------------------------------


@dataclass
class Stats:
    outcomes: Counter[tuple[str, str, Outcome, bool]] = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"grpc": [], "rest": []})
    measuring: bool = False
    samples: list[str] = field(default_factory=list)  # a few unexpected answers, to show


class Caller:
    """One call in flight: a host playing games, with other calls mixed in."""

    def __init__(self, transport: Grpc | Rest, seed: int, stats: Stats) -> None:
        self.t = transport
        self.rng = random.Random(seed)
        self.stats = stats
        self.snapshot = b""
        self.seq = 0
        self.moves: list[game.Move] = []
        self.awaited = 0
        self.players = 4
        self.steps = 0
        self.over = False
        self.game_over = False
        self.text = ""

    async def deal(self) -> Outcome:
        variant, players = self.rng.choice(GAMES)
        outcome, resp = await self.t.call("Deal", api.DealRequest(
            variant=variant, players=players, seed=self.rng.randrange(1 << 63)))
        if isinstance(resp, api.DealResponse):
            self.snapshot, self.seq, self.players = resp.snapshot, 0, players
            self.moves, self.steps, self.over, self.game_over = [], 0, False, False
        return outcome

    async def step(self) -> Outcome:
        """The host's next call: LegalMoves, ApplyMove, NextDeal or a new Deal."""
        if self.game_over or self.steps >= MAX_STEPS:
            return await self.deal()
        if self.over:
            outcome, resp = await self.t.call("NextDeal", api.NextDealRequest(
                snapshot=self.snapshot, expected_seq=self.seq))
            if isinstance(resp, api.NextDealResponse):
                self.snapshot, self.seq = resp.snapshot, resp.header.seq
                self.over, self.moves = False, []
            return outcome
        if not self.moves:
            outcome, resp = await self.t.call("LegalMoves",
                                              api.LegalMovesRequest(snapshot=self.snapshot))
            if isinstance(resp, api.LegalMovesResponse):
                self.moves, self.awaited = list(resp.moves), resp.seat
            return outcome
        moves = [m for m in self.moves if m.text != "undo"] or self.moves
        outcome, resp = await self.t.call("ApplyMove", api.ApplyMoveRequest(
            snapshot=self.snapshot, move=self.rng.choice(moves), expected_seq=self.seq,
            view_seat=self.awaited))
        if isinstance(resp, api.ApplyMoveResponse):
            self.snapshot, self.seq, self.moves = resp.snapshot, resp.header.seq, []
            self.over, self.game_over = resp.hand_over, resp.game_over
            self.steps += 1
        return outcome

    def record(self, kind: str, outcome: Outcome, seconds: float | None = None) -> None:
        if not self.stats.measuring:
            return
        good = EXPECTED[kind](outcome)
        self.stats.outcomes[(self.t.name, kind, outcome, good)] += 1
        if seconds is not None:
            self.stats.latencies[self.t.name].append(seconds)
        if not good and len(self.stats.samples) < 20:
            self.stats.samples.append(f"{self.t.name} {kind}: {outcome}")

    async def one(self, kind: str) -> Outcome:
        t, snap = self.t, self.snapshot
        if kind == "step":
            return await self.step()
        if kind == "score":
            return (await t.call("ScoreHand", api.ScoreHandRequest(snapshot=snap)))[0]
        if kind == "view":
            seat = self.rng.randrange(-1, self.players)
            return (await t.call("GetView", api.GetViewRequest(snapshot=snap, seat=seat)))[0]
        if kind == "suggest":
            if self.over or self.game_over:
                return "OK"  # nothing to suggest on a finished hand (that refusal is tested)
            level = self.rng.choice(("greedy", "random"))
            return (await t.call("SuggestMove", api.SuggestMoveRequest(
                snapshot=snap, level=level, seed=self.rng.randrange(1 << 32))))[0]
        if kind == "export":
            outcome, resp = await t.call("ExportPosition", api.ExportPositionRequest(
                snapshot=snap))
            if isinstance(resp, api.ExportPositionResponse):
                self.text = resp.position
            return outcome
        if kind == "import":
            return (await t.call("ImportPosition", api.ImportPositionRequest(
                position=self.text)))[0]
        if kind == "variants":
            return (await t.call("ListVariants", api.ListVariantsRequest()))[0]
        if kind in ("tampered", "version"):
            bad = bytearray(snap)
            if kind == "tampered":
                bad[self.rng.randrange(len(bad))] ^= 1 << self.rng.randrange(8)
                if bad[2] != snap[2]:  # the version byte: that one is the other kind
                    bad[2] = snap[2]
                    bad[-1] ^= 1
            else:
                bad[2] = 200
            return (await t.call("LegalMoves", api.LegalMovesRequest(snapshot=bytes(bad))))[0]
        if kind == "out_of_turn":
            seat = (self.awaited + 1 + self.rng.randrange(self.players - 1)) % self.players
            return (await t.call("ApplyMove", api.ApplyMoveRequest(
                snapshot=snap, move=self.rng.choice(self.moves), seat=seat)))[0]
        if kind == "stale":
            return (await t.call("ApplyMove", api.ApplyMoveRequest(
                snapshot=snap, move=game.Move(text="draw"), expected_seq=self.seq + 1)))[0]
        if kind == "bad_variant":
            return (await t.call("Deal", api.DealRequest(variant="chess", players=2)))[0]
        if kind == "bad_notation":
            return (await t.call("ImportPosition", api.ImportPositionRequest(
                position="canasta-position 1\nplayers: seven\n")))[0]
        if kind == "garbage":
            if isinstance(t, Grpc):
                return (await t.send("LegalMoves", b"\xff\xfe\xfd" + os.urandom(8)))[0]
            return (await t.send("Deal", b'{"variant": "classic", players: 4'))[0]
        if kind == "oversized":
            if isinstance(t, Grpc):
                return (await t.send("LegalMoves", api.LegalMovesRequest(
                    snapshot=bytes(LIMIT + 16)).SerializeToString()))[0]
            # declared too large: refused before the body is read (so sent without one)
            return (await t.oversized("LegalMoves", LIMIT + 16))[0]
        if kind == "short_deadline":
            return (await t.call("ScoreHand", api.ScoreHandRequest(snapshot=snap),
                                 timeout=0.001))[0]
        raise AssertionError(kind)

    async def run(self, stop: asyncio.Event) -> None:
        self.record("deal", await self.deal())
        kinds, weights = zip(*KINDS, strict=True)
        first = list(kinds)  # each kind once first, so even a short run has them all
        self.rng.shuffle(first)
        counted = False  # ... and once more when the measured window opens
        while not stop.is_set():
            if not counted and self.stats.measuring:
                counted = True
                first = list(kinds)
                self.rng.shuffle(first)
            kind = first.pop() if first else self.rng.choices(kinds, weights)[0]
            if kind == "out_of_turn" and not self.moves:
                kind = "stale"  # the awaited seat is known once LegalMoves answered
            elif kind == "import" and not self.text:
                kind = "export"  # a position to import comes from an export
            elif kind == "short_deadline" and isinstance(self.t, Rest):
                kind = "score"  # REST has no deadlines: an ordinary ScoreHand
            t0 = time.perf_counter()
            try:
                outcome = await self.one(kind)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as err:
                outcome = f"TRANSPORT {type(err).__name__}"
            except Exception as err:  # a client-side surprise is an unexpected answer too
                outcome = f"CLIENT {type(err).__name__}: {err}"[:120]
            self.record(kind, outcome, time.perf_counter() - t0)
            if not self.snapshot:
                self.record("deal", await self.deal())


# --- the run -----------------------------------------------------------------------


def start_server(tmp: Path, state_cache: int | None = None, grpc_threads: str = "auto",
                 ) -> tuple[subprocess.Popen[bytes], dict[str, int], Path]:
    log = tmp / "server.log"
    settings = {"CANASTA_SEAL_KEYS": new_key_entry("soak"), "CANASTA_ACCESS_LOG": "false",
                "CANASTA_GRPC_THREADS": grpc_threads}
    if state_cache is not None:
        settings["CANASTA_STATE_CACHE"] = str(state_cache)
    proc, ports = start_service(tmp, "soak", settings, log=log)
    return proc, ports, log


async def _drive(transport: str, port: int, callers: int, seed: int, start_at: float,
                 end_at: float) -> dict[str, Any]:
    stats = Stats()
    conns: list[Grpc | Rest] = ([Grpc(port)] if transport == "grpc"
                                else [Rest(port) for _ in range(callers)])
    team = [Caller(conns[i % len(conns)], seed + i, stats) for i in range(callers)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(c.run(stop)) for c in team]
    try:
        await asyncio.sleep(max(0.0, start_at - time.time()))  # warming up
        stats.measuring = True
        await asyncio.sleep(max(0.0, end_at - time.time()))
        stats.measuring = False
    finally:
        stop.set()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        for conn in conns:
            await conn.close()
    return {"outcomes": stats.outcomes, "latencies": stats.latencies[transport],
            "samples": stats.samples,
            "crashed": [repr(d) for d in done if isinstance(d, BaseException)]}


def _client(transport: str, port: int, callers: int, seed: int, start_at: float,
            end_at: float, results: Any) -> None:
    """One client process per transport, so neither starves the other's event loop."""
    results.put((transport, asyncio.run(_drive(transport, port, callers, seed, start_at,
                                                end_at))))


def load(ports: dict[str, int], pid: int, args: argparse.Namespace) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    start_at = time.time() + 2.0 + args.warmup  # 2 s for the clients to start
    end_at = start_at + args.seconds
    faces = [t for t in ("grpc", "rest") if t in args.transports.split(",")]
    share = [args.in_flight // len(faces)] * len(faces)
    share[-1] += args.in_flight - sum(share)
    port = {"grpc": ports["grpc_port"], "rest": ports["http_port"]}
    plan = [(t, port[t], n) for t, n in zip(faces, share, strict=True)]
    procs = [ctx.Process(target=_client, args=(t, port, n, args.seed + i * 1000, start_at,
                                               end_at, results), daemon=True)
             for i, (t, port, n) in enumerate(plan)]
    for proc in procs:
        proc.start()
    rss: list[int] = []
    time.sleep(max(0.0, start_at - time.time()))
    while True:
        rss.append(rss_kib(pid))
        left = end_at - time.time()
        if left <= 0:
            break
        time.sleep(min(1.0, left))
    stats = Stats()
    crashed: list[str] = []
    for _ in procs:
        transport, part = results.get(timeout=120)
        stats.outcomes.update(part["outcomes"])
        stats.latencies[transport] = part["latencies"]
        stats.samples += part["samples"]
        crashed += part["crashed"]
    for proc in procs:
        proc.join(30)
        if proc.exitcode != 0:
            crashed.append(f"client process {proc.name} exited {proc.exitcode}")
    return {"stats": stats, "seconds": args.seconds, "rss": rss, "crashed": crashed}


def summarize(run: dict[str, Any], exit_code: int | None, log_errors: list[str],
              args: argparse.Namespace) -> dict[str, Any]:
    stats: Stats = run["stats"]
    by_outcome: Counter[tuple[str, Outcome, bool]] = Counter()
    by_transport: Counter[str] = Counter()
    for (transport, _kind, outcome, good), n in stats.outcomes.items():
        by_outcome[(transport, outcome, good)] += n
        by_transport[transport] += n
    unexpected = sum(n for (_t, _k, _o, good), n in stats.outcomes.items() if not good)
    unexpected += len(run["crashed"]) + len(log_errors) + (exit_code != 0)
    calls = sum(by_transport.values())
    rss = run["rss"]
    growth = (rss[-1] - rss[0]) / rss[0]

    def lat(xs: list[float]) -> dict[str, float]:
        xs = sorted(xs)
        if not xs:
            return {"p50_ms": 0.0, "p99_ms": 0.0}
        return {"p50_ms": round(xs[len(xs) // 2] * 1e3, 2),
                "p99_ms": round(xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1e3, 2)}

    return {
        "passed": unexpected == 0 and growth < args.max_rss_growth,
        "seconds": round(run["seconds"], 1), "warmup_seconds": args.warmup,
        "in_flight": args.in_flight, "grpc_threads": args.grpc_threads, "calls": calls,
        "calls_per_s": round(calls / run["seconds"]),
        "by_transport": {t: {"calls": n, "calls_per_s": round(n / run["seconds"]),
                             **lat(stats.latencies[t])} for t, n in sorted(by_transport.items())},
        "unexpected": unexpected,
        "answers": [{"transport": t, "answer": o, "expected": g, "count": n}
                    for (t, o, g), n in sorted(by_outcome.items(), key=lambda x: (-x[1], x[0]))],
        "by_kind": {f"{t} {k}": n for (t, k, _o, _g), n in sorted(stats.outcomes.items())},
        "unexpected_samples": stats.samples + run["crashed"] + log_errors[:10],
        "rss_kib": {"start": rss[0], "end": rss[-1], "max": max(rss),
                    "growth": round(growth, 4), "limit": args.max_rss_growth,
                    "every_second": rss},
        "server_exit_code": exit_code,
        "server_log_errors": len(log_errors),
    }


def report(result: dict[str, Any]) -> None:
    out = sys.stdout
    out.write(f"soak: {result['seconds']} s after {result['warmup_seconds']} s warm-up, "
              f"{result['in_flight']} calls in flight: {result['calls']} calls, "
              f"{result['calls_per_s']}/s (CANASTA_GRPC_THREADS={result['grpc_threads']})\n")
    out.write(f"{'transport':10} {'calls':>9} {'calls/s':>8} {'p50 ms':>8} {'p99 ms':>8}\n")
    for name, t in result["by_transport"].items():
        out.write(f"{name:10} {t['calls']:9d} {t['calls_per_s']:8d} {t['p50_ms']:8.2f} "
                  f"{t['p99_ms']:8.2f}\n")
    out.write(f"\n{'transport':10} {'answer':50} {'count':>9}  verdict\n")
    for a in result["answers"]:
        verdict = "expected" if a["expected"] else "UNEXPECTED"
        out.write(f"{a['transport']:10} {a['answer'][:50]:50} {a['count']:9d}  {verdict}\n")
    r = result["rss_kib"]
    out.write(f"\nserver RSS: {r['start'] / 1024:.1f} MiB at start, {r['end'] / 1024:.1f} MiB at "
              f"end (max {r['max'] / 1024:.1f}): {r['growth']:+.1%} (limit +{r['limit']:.0%})\n")
    out.write(f"server exit code after SIGTERM: {result['server_exit_code']}; "
              f"error lines in its log: {result['server_log_errors']}; "
              f"gRPC server: {result['grpc_server']}\n")
    for sample in result["unexpected_samples"]:
        out.write(f"  unexpected: {sample}\n")
    out.write(f"unexpected answers: {result['unexpected']} -> "
              f"{'PASS' if result['passed'] else 'FAIL'}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=90.0,
                        help="load before the window: the bounded caches (opened states, "
                             "meld views, legal moves, move messages, JSON) fill and RSS "
                             "levels off, about 90 s at this rate on 2 cores")
    parser.add_argument("--in-flight", type=int, default=32, help="half gRPC, half REST")
    parser.add_argument("--transports", default="grpc,rest", help="grpc, rest or both")
    parser.add_argument("--max-rss-growth", type=float, default=0.10)
    parser.add_argument("--state-cache", type=int, default=None,
                        help="CANASTA_STATE_CACHE of the server (default: its default, 1024); "
                             "a short run uses a small one so the warm-up fills it")
    parser.add_argument("--grpc-threads", default="auto",
                        help="CANASTA_GRPC_THREADS of the server (auto: grpc.aio in one process)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        proc, ports, log = start_server(Path(tmp), args.state_cache, args.grpc_threads)
        load_before = os.getloadavg()
        try:
            run = load(ports, proc.pid, args)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                exit_code: int | None = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                exit_code = None
        lines = log.read_text().splitlines()
    log_errors = [line for line in lines
                  if '"level": "error"' in line or '"level": "critical"' in line]
    result = summarize(run, exit_code, log_errors, args)
    result["grpc_server"] = next((json.loads(line).get("grpc_server") for line in lines
                                  if '"msg": "listening"' in line), None)
    result["setup"] = {
        "server": "python -m service (default settings, access log off"
                  + (f", CANASTA_STATE_CACHE={args.state_cache})" if args.state_cache is not None
                     else ")"),
        "client": "one Python process: one grpc.aio channel, raw HTTP/1.1 keep-alive "
                  "connections (one per REST caller)",
        "cpus": os.cpu_count(), "python": platform.python_version(),
        "loadavg_1m_before": round(load_before[0], 2),
        "loadavg_1m_after": round(os.getloadavg()[0], 2),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    report(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    sys.stdout.write(f"wrote {args.out}\n")
    return 0 if result["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
