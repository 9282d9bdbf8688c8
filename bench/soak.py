"""Soak test: a bounded mixed load on a real server, then its errors and memory.

Starts ``python -m service`` (default settings, a random key, free ports on
loopback, access log off) and keeps ``--in-flight`` calls in flight (32: half
over gRPC, half over REST) for ``--seconds`` (60) after ``--warmup`` seconds.
Each caller plays games through the API with the credentials its Deal answered
(Deal, LegalMoves, ApplyMove with ``expected_seq``, ScoreHand, NextDeal, a new
Deal when the game is over), each call as the host (the host token) or as the
seat in turn (its seat token: its own moves, its own view in the answer), and
mixes in every other RPC (GetView, SuggestMove, ExportPosition, ImportPosition,
ListVariants) as the host, a seat or a spectator (no token) where each may
call, and bad requests with a known answer: tampered and unknown-version
snapshots, a move out of turn, a stale ``expected_seq``, another game's
``expected_game_id``, calls without a credential that need one, forged and
other games' tokens, a seat asking for another seat's view, an unknown variant,
unreadable notation, bytes that are no message (gRPC), malformed JSON and
oversized bodies (REST), oversized messages and 1 ms deadlines (gRPC).

Every answer is classified: the expected one for its kind (OK for a legal call,
the known refusal for a bad one) or unexpected (anything else: a 5xx,
INTERNAL/UNKNOWN, a transport error, a legal call refused, an answer scoped
wrongly: a seat's ApplyMove with another view than its own, a seat's NextDeal
with credentials, a host's NextDeal with other credentials than the Deal's). The server's
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
import uuid
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

from service.api.pb import SERVICE_NAME, api, game  # noqa: E402
from service.sealing.keys import new_key_entry  # noqa: E402

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
         ("stale", 4), ("wrong_game", 2), ("spectator", 3), ("wrong_token", 3),
         ("seat_peek", 2), ("bad_variant", 2), ("bad_notation", 2), ("garbage", 3),
         ("oversized", 1), ("short_deadline", 2)]
# the share of a game's calls made with the seat token of the seat in turn (else the host's)
SEAT_SHARE = 0.5
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
Outcome = str  # "OK" or "CODE REASON"


def _ok(outcome: Outcome) -> bool:
    return outcome == "OK"


# What each kind of call must answer (all other answers are unexpected).
EXPECTED: dict[str, Callable[[Outcome], bool]] = {
    **{k: _ok for k in ("step", "score", "view", "suggest", "export", "import", "variants",
                        "deal")},
    "tampered": lambda o: o == "INVALID_ARGUMENT SNAPSHOT_INVALID",
    "version": lambda o: o == "INVALID_ARGUMENT SNAPSHOT_VERSION_UNSUPPORTED",
    "out_of_turn": lambda o: o.startswith("FAILED_PRECONDITION ") and o.split()[1].isupper(),
    "stale": lambda o: o == "ABORTED SNAPSHOT_STALE",
    "wrong_game": lambda o: o == "ABORTED SNAPSHOT_WRONG_GAME",
    "spectator": lambda o: o == "UNAUTHENTICATED CREDENTIAL_REQUIRED",
    "wrong_token": lambda o: o == "UNAUTHENTICATED CREDENTIAL_INVALID",
    "seat_peek": lambda o: o == "PERMISSION_DENIED SEAT_NOT_ALLOWED",
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

    async def call(self, method: str, request: Message, timeout: float = 30.0,
                   token: str | None = None) -> tuple[Outcome, Message | None]:
        return await self.send(method, request.SerializeToString(), timeout, token)

    async def send(self, method: str, data: bytes, timeout: float = 30.0,
                   token: str | None = None) -> tuple[Outcome, Message | None]:
        metadata = (("authorization", f"Bearer {token}"),) if token else ()
        try:
            answer = await self.raw[method](data, timeout=timeout, metadata=metadata)
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

    async def post(self, path: str, body: bytes, verb: str = "POST",
                   token: str | None = None) -> tuple[int, bytes]:
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        raw = (f"{verb} {path} HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
               f"{auth}Content-Length: {len(body)}\r\n\r\n").encode() + body
        return await self._exchange(raw)

    async def call(self, method: str, request: Message, timeout: float = 30.0,
                   token: str | None = None) -> tuple[Outcome, Message | None]:
        verb, path = ROUTES[method]
        body = b"" if verb == "GET" else json_format.MessageToJson(request, indent=None).encode()
        return self.outcome(method, *await asyncio.wait_for(self.post(path, body, verb, token),
                                                              timeout))

    async def send(self, method: str, body: bytes, timeout: float = 30.0,
                   token: str | None = None) -> tuple[Outcome, Message | None]:
        status_body = await asyncio.wait_for(self.post(ROUTES[method][1], body, token=token),
                                             timeout)
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
    roles: Counter[tuple[str, str]] = field(default_factory=Counter)  # (transport, role)
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"grpc": [], "rest": []})
    measuring: bool = False
    samples: list[str] = field(default_factory=list)  # a few unexpected answers, to show


def forged(token: str, rng: random.Random) -> str:
    """A token with one character of its 22-character MAC changed: well-formed, not valid."""
    at = len(token) - 1 - rng.randrange(22)
    return token[:at] + rng.choice(B64URL.replace(token[at], "")) + token[at + 1:]


class Caller:
    """One call in flight: a game's host and its players, with other calls mixed in."""

    def __init__(self, transport: Grpc | Rest, seed: int, stats: Stats) -> None:
        self.t = transport
        self.rng = random.Random(seed)
        self.stats = stats
        self.snapshot = b""
        self.seq = 0
        self.moves: list[game.Move] = []
        self.awaited = 0  # the seat in turn, as the last LegalMoves or ApplyMove answered
        self.known = False  # whether ``awaited`` is of the current position
        self.players = 4
        self.steps = 0
        self.over = False
        self.game_over = False
        self.text = ""
        self.host = ""  # the game's credentials, from its Deal
        self.seats: list[str] = []
        self.previous = ""  # the host token of the game before: another game's
        self.role = "host"  # the role of the call being made (for the report)

    def as_host(self) -> str:
        self.role = "host"
        return self.host

    def as_seat(self, seat: int) -> str:
        self.role = "seat"
        return self.seats[seat]

    def as_spectator(self) -> None:
        self.role = "spectator"

    def mover(self) -> str:
        """The token of a step: the seat in turn's (when known) or the host's."""
        if self.known and self.rng.random() < SEAT_SHARE:
            return self.as_seat(self.awaited)
        return self.as_host()

    async def deal(self) -> Outcome:
        variant, players = self.rng.choice(GAMES)
        self.as_spectator()  # no credential needed: the caller becomes the host
        outcome, resp = await self.t.call("Deal", api.DealRequest(
            variant=variant, players=players, seed=self.rng.randrange(1 << 63)))
        if isinstance(resp, api.DealResponse):
            self.snapshot, self.seq, self.players = resp.snapshot, 0, players
            self.moves, self.steps, self.over, self.game_over = [], 0, False, False
            self.previous = self.host
            self.host, self.seats, self.known = resp.host_token, list(resp.seat_tokens), False
            if not self.host or len(self.seats) != players:
                return "NO_CREDENTIALS in the Deal answer"
        return outcome

    async def step(self) -> Outcome:
        """The game's next call: LegalMoves, ApplyMove, NextDeal or a new Deal."""
        if self.game_over or self.steps >= MAX_STEPS:
            return await self.deal()
        if self.over:  # the host deals the next hand, or a seat (without a deck)
            seat = self.rng.randrange(self.players) if self.rng.random() < 0.3 else None
            token = self.as_host() if seat is None else self.as_seat(seat)
            outcome, resp = await self.t.call("NextDeal", api.NextDealRequest(
                snapshot=self.snapshot, expected_seq=self.seq), token=token)
            if isinstance(resp, api.NextDealResponse):
                self.snapshot, self.seq = resp.snapshot, resp.header.seq
                self.over, self.moves, self.known = False, [], False
                given = (resp.host_token, list(resp.seat_tokens))
                if seat is None and given != (self.host, self.seats):
                    return "CREDENTIALS_CHANGED in the host's NextDeal answer"
                if seat is not None and (given != ("", []) or len(resp.views) != 1):
                    return "SCOPE a seat's NextDeal answer has credentials or other views"
            return outcome
        if not self.moves:
            outcome, resp = await self.t.call("LegalMoves",
                                              api.LegalMovesRequest(snapshot=self.snapshot),
                                              token=self.mover())
            if isinstance(resp, api.LegalMovesResponse):
                self.moves, self.awaited, self.known = list(resp.moves), resp.seat, True
            return outcome
        moves = [m for m in self.moves if m.text != "undo"] or self.moves
        mover = self.awaited
        seat_call = self.rng.random() < SEAT_SHARE
        token = self.as_seat(mover) if seat_call else self.as_host()
        outcome, resp = await self.t.call("ApplyMove", api.ApplyMoveRequest(
            snapshot=self.snapshot, move=self.rng.choice(moves), expected_seq=self.seq,
            **({} if seat_call else {"view_seat": mover})), token=token)
        if isinstance(resp, api.ApplyMoveResponse):
            self.snapshot, self.seq, self.moves = resp.snapshot, resp.header.seq, []
            self.over, self.game_over = resp.hand_over, resp.game_over
            self.awaited, self.known = resp.awaited, not resp.hand_over
            self.steps += 1
            if seat_call and [v.seat for v in resp.views] != [mover]:
                return f"SCOPE seat {mover}'s ApplyMove answered views {[v.seat for v in resp.views]}"
        return outcome

    def record(self, kind: str, outcome: Outcome, seconds: float | None = None) -> None:
        if not self.stats.measuring:
            return
        good = EXPECTED[kind](outcome)
        self.stats.outcomes[(self.t.name, kind, outcome, good)] += 1
        self.stats.roles[(self.t.name, self.role)] += 1
        if seconds is not None:
            self.stats.latencies[self.t.name].append(seconds)
        if not good and len(self.stats.samples) < 20:
            self.stats.samples.append(f"{self.t.name} {kind} as {self.role}: {outcome}")

    def anyone(self) -> str | None:
        """The host's token, a seat's, or none (a spectator), at random."""
        pick = self.rng.randrange(self.players + 2)
        if pick == 0:
            return self.as_host()
        if pick == 1:
            self.as_spectator()
            return None
        return self.as_seat(pick - 2)

    async def one(self, kind: str) -> Outcome:
        t, snap = self.t, self.snapshot
        if kind == "step":
            return await self.step()
        if kind == "score":  # anyone may score; a seat or spectator sees its share
            return (await t.call("ScoreHand", api.ScoreHandRequest(snapshot=snap),
                                 token=self.anyone()))[0]
        if kind == "view":  # the host any seat's view; a seat its own; a spectator the table
            token = self.anyone()
            if self.role == "host":
                seat: int | None = self.rng.randrange(-1, self.players)
            elif self.role == "seat":
                seat = self.rng.choice([None, -1, self.seats.index(token or "")])
            else:
                seat = self.rng.choice([None, -1])
            req = api.GetViewRequest(snapshot=snap, **({} if seat is None else {"seat": seat}))
            return (await t.call("GetView", req, token=token))[0]
        if kind == "suggest":
            if self.over or self.game_over:
                return "OK"  # nothing to suggest on a finished hand (that refusal is tested)
            level = self.rng.choice(("greedy", "random"))
            return (await t.call("SuggestMove", api.SuggestMoveRequest(
                snapshot=snap, level=level, seed=self.rng.randrange(1 << 32)),
                token=self.mover()))[0]
        if kind == "export":
            outcome, resp = await t.call("ExportPosition", api.ExportPositionRequest(
                snapshot=snap), token=self.as_host())
            if isinstance(resp, api.ExportPositionResponse):
                self.text = resp.position
            return outcome
        if kind == "import":
            self.as_spectator()
            return (await t.call("ImportPosition", api.ImportPositionRequest(
                position=self.text)))[0]
        if kind == "variants":
            self.as_spectator()
            return (await t.call("ListVariants", api.ListVariantsRequest()))[0]
        if kind in ("tampered", "version"):
            bad = bytearray(snap)
            if kind == "tampered":
                at = self.rng.randrange(len(bad))
                bad[at] ^= 1 << self.rng.randrange(8)
                # the version byte is the other kind; a changed key id (or its length) can
                # name a key the server does not hold (SNAPSHOT_KEY_RETIRED): damage the tag
                if at == 2 or 4 <= at < 5 + snap[4]:
                    bad[at] = snap[at]
                    bad[-1] ^= 1
            else:
                bad[2] = 200
            return (await t.call("LegalMoves", api.LegalMovesRequest(snapshot=bytes(bad)),
                                 token=self.mover()))[0]
        if kind == "out_of_turn":  # the host claiming another seat, or that seat itself
            seat = (self.awaited + 1 + self.rng.randrange(self.players - 1)) % self.players
            move = self.rng.choice(self.moves)
            if self.rng.random() < 0.5:
                return (await t.call("ApplyMove", api.ApplyMoveRequest(
                    snapshot=snap, move=move, seat=seat), token=self.as_host()))[0]
            return (await t.call("ApplyMove", api.ApplyMoveRequest(snapshot=snap, move=move),
                                 token=self.as_seat(seat)))[0]
        if kind == "stale":
            return (await t.call("ApplyMove", api.ApplyMoveRequest(
                snapshot=snap, move=game.Move(text="draw"), expected_seq=self.seq + 1),
                token=self.mover()))[0]
        if kind == "wrong_game":
            return (await t.call("ApplyMove", api.ApplyMoveRequest(
                snapshot=snap, move=game.Move(text="draw"), expected_seq=self.seq,
                expected_game_id=str(uuid.UUID(int=self.rng.getrandbits(128)))),
                token=self.mover()))[0]
        if kind == "spectator":  # a call that needs a credential, without one
            self.as_spectator()
            if self.rng.random() < 0.5:
                return (await t.call("LegalMoves", api.LegalMovesRequest(snapshot=snap)))[0]
            return (await t.call("ApplyMove", api.ApplyMoveRequest(
                snapshot=snap, move=game.Move(text="draw"))))[0]
        if kind == "wrong_token":  # another game's (valid there) or a forged one
            token = self.previous if self.previous and self.rng.random() < 0.5 else forged(
                self.rng.choice([self.host, *self.seats]), self.rng)
            self.role = "wrong"
            method = self.rng.choice(("LegalMoves", "ScoreHand", "GetView"))
            req = getattr(api, f"{method}Request")(snapshot=snap)
            return (await t.call(method, req, token=token))[0]
        if kind == "seat_peek":  # a seat asking for another seat's view
            seat = self.rng.randrange(self.players)
            other = (seat + 1 + self.rng.randrange(self.players - 1)) % self.players
            return (await t.call("GetView", api.GetViewRequest(snapshot=snap, seat=other),
                                 token=self.as_seat(seat)))[0]
        if kind == "bad_variant":
            self.as_spectator()
            return (await t.call("Deal", api.DealRequest(variant="chess", players=2)))[0]
        if kind == "bad_notation":
            self.as_spectator()
            return (await t.call("ImportPosition", api.ImportPositionRequest(
                position="canasta-position 1\nplayers: seven\n")))[0]
        if kind == "garbage":
            if isinstance(t, Grpc):
                return (await t.send("LegalMoves", b"\xff\xfe\xfd" + os.urandom(8),
                                     token=self.mover()))[0]
            self.as_spectator()
            return (await t.send("Deal", b'{"variant": "classic", players: 4'))[0]
        if kind == "oversized":
            self.as_host()
            if isinstance(t, Grpc):
                return (await t.send("LegalMoves", api.LegalMovesRequest(
                    snapshot=bytes(LIMIT + 16)).SerializeToString(), token=self.host))[0]
            # declared too large: refused before the body is read (so sent without one)
            return (await t.oversized("LegalMoves", LIMIT + 16))[0]
        if kind == "short_deadline":
            return (await t.call("ScoreHand", api.ScoreHandRequest(snapshot=snap),
                                 timeout=0.001, token=self.mover()))[0]
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


def start_server(tmp: Path, state_cache: int | None = None, grpc_threads: int | None = None,
                 ) -> tuple[subprocess.Popen[bytes], dict[str, int], Path]:
    log = tmp / "server.log"
    settings = {"CANASTA_SEAL_KEYS": new_key_entry("soak"), "CANASTA_ACCESS_LOG": "false"}
    if state_cache is not None:
        settings["CANASTA_STATE_CACHE"] = str(state_cache)
    if grpc_threads is not None:
        settings["CANASTA_GRPC_THREADS"] = str(grpc_threads)
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
    return {"outcomes": stats.outcomes, "roles": stats.roles,
            "latencies": stats.latencies[transport], "samples": stats.samples,
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
        stats.roles.update(part["roles"])
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
        "in_flight": args.in_flight, "calls": calls,
        "calls_per_s": round(calls / run["seconds"]),
        "by_transport": {t: {"calls": n, "calls_per_s": round(n / run["seconds"]),
                             **lat(stats.latencies[t])} for t, n in sorted(by_transport.items())},
        "unexpected": unexpected,
        "answers": [{"transport": t, "answer": o, "expected": g, "count": n}
                    for (t, o, g), n in sorted(by_outcome.items(), key=lambda x: (-x[1], x[0]))],
        "by_kind": {f"{t} {k}": n for (t, k, _o, _g), n in sorted(stats.outcomes.items())},
        "by_role": {f"{t} {r}": n for (t, r), n in sorted(stats.roles.items())},
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
              f"{result['calls_per_s']}/s (gRPC engine threads: {result['grpc_threads']})\n")
    out.write(f"{'transport':10} {'calls':>9} {'calls/s':>8} {'p50 ms':>8} {'p99 ms':>8}\n")
    for name, t in result["by_transport"].items():
        out.write(f"{name:10} {t['calls']:9d} {t['calls_per_s']:8d} {t['p50_ms']:8.2f} "
                  f"{t['p99_ms']:8.2f}\n")
    out.write(f"\n{'transport':10} {'answer':50} {'count':>9}  verdict\n")
    for a in result["answers"]:
        verdict = "expected" if a["expected"] else "UNEXPECTED"
        out.write(f"{a['transport']:10} {a['answer'][:50]:50} {a['count']:9d}  {verdict}\n")
    roles = ", ".join(f"{k} {n}" for k, n in result["by_role"].items())
    out.write(f"\ncalls by credential (host token, seat token, none, wrong): {roles}\n")
    r = result["rss_kib"]
    out.write(f"server RSS: {r['start'] / 1024:.1f} MiB at start, {r['end'] / 1024:.1f} MiB at "
              f"end (max {r['max'] / 1024:.1f}): {r['growth']:+.1%} (limit +{r['limit']:.0%})\n")
    out.write(f"server exit code after SIGTERM: {result['server_exit_code']}; "
              f"error lines in its log: {result['server_log_errors']}\n")
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
    parser.add_argument("--grpc-threads", type=int, default=None,
                        help="CANASTA_GRPC_THREADS of the server (default: its default, 4)")
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
    result["grpc_threads"] = next((json.loads(line).get("grpc_threads") for line in lines
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
