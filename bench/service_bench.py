"""Service benchmark: the rules RPCs against the same server's health check, side by side.

Starts ``python -m service`` (default settings, so ``CANASTA_ACCESS=tokens``; a
random key, ports on loopback), builds a pool of real classic 4-player positions
by playing games through the API as their host (the host token each Deal
answered), recording for each position the seat token of the seat in turn, then
runs closed loops with 16 calls in flight:

* gRPC: ``Health/Check`` vs ``LegalMoves`` and ``ApplyMove`` as a player's client
  sends them: with the seat token of the seat in turn and no ``view_seat`` (so an
  ApplyMove answer carries that seat's one view), the target rows; and the same
  calls with the game's host token (every seat's view in ApplyMove's answer),
  for information (one aio channel);
* HTTP: ``GET /healthz`` vs ``POST /v1/legal-moves`` with the seat token (16
  keep-alive connections, a minimal HTTP/1.1 client so the client costs the same
  for both).

Workloads are interleaved over several short rounds and each ratio is the
median of per-round ratios, so load from other processes hits both sides of a
ratio alike. Prints each workload's rate, p50/p99 latency, server and client
CPU per call, the ratios against the same server's health call (targets: seat
LegalMoves >= 0.9, seat ApplyMove >= 0.75, REST legal-moves >= 0.8; the host
rows have none), the server-CPU ratios (less sensitive to a busy machine) and
the sealed size of classic 4-player mid-hand snapshots (target <= 1 KB), and
writes ``bench/results/service.json``. Every call is checked: a refusal stops
the run, so no row measures a cheaper refusal in place of the call.

The pool's snapshots are ones the server sealed, so they sit in its state
cache, as a host's next call usually does (the target rows). The same
workloads against a second server with ``CANASTA_STATE_CACHE=0`` and the same
key (the "cold" rows) show the price of opening every snapshot, which is what a
call that lands on another replica pays.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import platform
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from serve import start_service  # noqa: E402

from service.api.pb import api, api_grpc, game  # noqa: E402
from service.sealing.keys import new_key_entry  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "service.json"
IN_FLIGHT = 16
CHECK, HEALTHZ = "grpc.Health/Check", "http.GET /healthz"
LEGAL_SEAT, LEGAL_HOST = "grpc.LegalMoves (seat)", "grpc.LegalMoves (host)"
APPLY_SEAT, APPLY_HOST = "grpc.ApplyMove (seat)", "grpc.ApplyMove (host)"
REST_LEGAL = "http.POST /v1/legal-moves (seat)"
# (workload, its health baseline, target ratio or None: for information)
PAIRS = ((LEGAL_SEAT, CHECK, 0.9), (APPLY_SEAT, CHECK, 0.75), (REST_LEGAL, HEALTHZ, 0.8),
         (LEGAL_HOST, CHECK, None), (APPLY_HOST, CHECK, None))
TARGET_SNAPSHOT = 1024
CLK_TCK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _start_server(cold: bool, tmp: Path, key: str,
                  grpc_threads: int | None) -> tuple[subprocess.Popen[bytes], dict[str, int]]:
    settings = {"CANASTA_SEAL_KEYS": key, **({"CANASTA_STATE_CACHE": "0"} if cold else {}),
                **({"CANASTA_GRPC_THREADS": str(grpc_threads)} if grpc_threads else {})}
    name = "cold" if cold else "warm"
    return start_service(tmp, name, settings, log=tmp / f"{name}.log")


def _listening(log: Path) -> dict[str, Any]:
    """The server's "listening" log line: its engine build, gRPC threads, access mode."""
    for line in log.read_text().splitlines():
        if '"msg": "listening"' in line:
            entry: dict[str, Any] = json.loads(line)
            return entry
    return {}


# --- the position pool ---------------------------------------------------------------


def auth(token: str) -> tuple[tuple[str, str], ...]:
    """gRPC metadata presenting a credential."""
    return (("authorization", f"Bearer {token}"),)


@dataclass(frozen=True)
class Position:
    """A pool position: its snapshot, a legal move of the seat in turn, that seat, its seat
    token and the game's host token (as the game's Deal answered them)."""

    snapshot: bytes
    move: game.Move
    awaited: int
    seat_token: str
    host_token: str


async def build_pool(stub: api_grpc.CanastaEngineStub, games: int, seed: int,
                     size: int) -> tuple[list[Position], list[int]]:
    """Positions along random 4-player games played by their host, and mid-hand snapshot
    sizes."""
    rng = random.Random(seed)
    pool: list[Position] = []
    mid_sizes: list[int] = []
    for g in range(games):
        deal = await stub.Deal(api.DealRequest(variant="classic", players=4, seed=seed + g))
        host = auth(deal.host_token)
        snapshot, hand = deal.snapshot, [deal.snapshot]
        for _ in range(600):
            legal = await stub.LegalMoves(api.LegalMovesRequest(snapshot=snapshot),
                                          metadata=host)
            moves = [m for m in legal.moves if m.text != "undo"]
            move = rng.choice(moves)
            pool.append(Position(snapshot, move, legal.seat, deal.seat_tokens[legal.seat],
                                 deal.host_token))
            applied = await stub.ApplyMove(api.ApplyMoveRequest(snapshot=snapshot, move=move),
                                           metadata=host)
            snapshot = applied.snapshot
            hand.append(snapshot)
            if applied.hand_over:
                break
        mid_sizes.append(len(hand[len(hand) // 2]))
    step = max(1, len(pool) // size)  # an even sample, well inside the server's cache
    return pool[::step][:size], mid_sizes


async def check_scopes(stub: api_grpc.CanastaEngineStub, pool: list[Position]) -> None:
    """The calls the rows measure answer what a client of each role gets: a seat its moves
    (the same as the host's for the seat in turn) and, from ApplyMove, its one view; the host
    every seat's view. (Not timed; stops the run if the server answers otherwise.)"""
    for p in pool[:: max(1, len(pool) // 20)]:
        seat = await stub.LegalMoves(api.LegalMovesRequest(snapshot=p.snapshot),
                                     metadata=auth(p.seat_token))
        host = await stub.LegalMoves(api.LegalMovesRequest(snapshot=p.snapshot),
                                     metadata=auth(p.host_token))
        assert seat.seat == host.seat == p.awaited and list(seat.moves) == list(host.moves)
        request = api.ApplyMoveRequest(snapshot=p.snapshot, move=p.move)
        one = await stub.ApplyMove(request, metadata=auth(p.seat_token))
        every = await stub.ApplyMove(request, metadata=auth(p.host_token))
        if [v.seat for v in one.views] != [p.awaited] or len(every.views) != 4:
            raise SystemExit(f"unexpected scopes: seat {p.awaited}'s ApplyMove answered "
                             f"views {[v.seat for v in one.views]}, the host's "
                             f"{[v.seat for v in every.views]}")


# --- closed loops -----------------------------------------------------------------------


async def closed_loop(call: Callable[[int], Awaitable[None]], seconds: float,
                      server_pid: int) -> dict[str, float]:
    latencies: list[float] = []
    stop_at = 0.0

    async def worker(w: int) -> None:
        i = w
        while True:
            t0 = time.perf_counter()
            if t0 >= stop_at:
                return
            await call(i)
            latencies.append(time.perf_counter() - t0)
            i += IN_FLIGHT

    stop_at = time.perf_counter() + min(0.5, seconds / 4)  # warm-up
    await asyncio.gather(*(worker(w) for w in range(IN_FLIGHT)))
    latencies.clear()
    cpu0, own0, t_start = _cpu_seconds(server_pid), _own_cpu(), time.perf_counter()
    stop_at = t_start + seconds
    await asyncio.gather(*(worker(w) for w in range(IN_FLIGHT)))
    elapsed, cpu = time.perf_counter() - t_start, _cpu_seconds(server_pid) - cpu0
    own = _own_cpu() - own0
    latencies.sort()
    n = len(latencies)
    return {"calls": n, "seconds": elapsed, "rps": n / elapsed,
            "p50_ms": latencies[n // 2] * 1e3, "p99_ms": latencies[min(n - 1, int(n * 0.99))] * 1e3,
            "server_cpu_us_per_call": cpu / n * 1e6, "client_cpu_us_per_call": own / n * 1e6}


class Http:
    """A minimal keep-alive HTTP/1.1 client: one connection per worker, Content-Length only."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def open(self) -> None:
        """(Re)connect: the server closes connections idle past its keep-alive timeout."""
        self.close()
        self.conns = [await asyncio.open_connection("127.0.0.1", self.port)
                      for _ in range(IN_FLIGHT)]

    async def request(self, worker: int, raw: bytes) -> bytes:
        reader, writer = self.conns[worker % IN_FLIGHT]
        writer.write(raw)
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.split(b"\r\n", 1)[0].decode())
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        return await reader.readexactly(length)

    def close(self) -> None:
        for _, writer in self.conns:
            writer.close()


def _post(path: str, body: bytes, token: str) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {token}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


class Target:
    """One server's clients and workloads."""

    def __init__(self, ports: dict[str, int], pid: int) -> None:
        self.pid = pid
        self.channel = grpc.aio.insecure_channel(f"127.0.0.1:{ports['grpc_port']}")
        self.stub = api_grpc.CanastaEngineStub(self.channel)
        self.health = health_pb2_grpc.HealthStub(self.channel)
        self.http = Http(ports["http_port"])

    def loads(self, pool: list[Position]) -> dict[str, Callable[[int], Awaitable[None]]]:
        """The workloads, each over the whole pool: request i is position i % len(pool) with
        the credential of the row's role (the messages and bytes are built once, as a client
        holding them would; the server gets each call whole)."""
        stub, health, http = self.stub, self.health, self.http
        n = len(pool)
        legal_reqs = [api.LegalMovesRequest(snapshot=p.snapshot) for p in pool]
        apply_reqs = [api.ApplyMoveRequest(snapshot=p.snapshot, move=p.move) for p in pool]
        seat_md = [auth(p.seat_token) for p in pool]
        host_md = [auth(p.host_token) for p in pool]
        check = health_pb2.HealthCheckRequest(service="")
        healthz = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
        legal_http = [_post("/v1/legal-moves", json.dumps(
            {"snapshot": base64.b64encode(p.snapshot).decode()}).encode(), p.seat_token)
            for p in pool]

        async def grpc_check(i: int) -> None:
            await health.Check(check)

        async def grpc_legal_seat(i: int) -> None:
            await stub.LegalMoves(legal_reqs[i % n], metadata=seat_md[i % n])

        async def grpc_legal_host(i: int) -> None:
            await stub.LegalMoves(legal_reqs[i % n], metadata=host_md[i % n])

        async def grpc_apply_seat(i: int) -> None:
            await stub.ApplyMove(apply_reqs[i % n], metadata=seat_md[i % n])

        async def grpc_apply_host(i: int) -> None:
            await stub.ApplyMove(apply_reqs[i % n], metadata=host_md[i % n])

        async def http_healthz(i: int) -> None:
            await http.request(i, healthz)

        async def http_legal(i: int) -> None:
            await http.request(i, legal_http[i % n])

        return {CHECK: grpc_check, LEGAL_SEAT: grpc_legal_seat, LEGAL_HOST: grpc_legal_host,
                HEALTHZ: http_healthz, REST_LEGAL: http_legal,
                APPLY_SEAT: grpc_apply_seat, APPLY_HOST: grpc_apply_host}

    async def warm(self, pool: list[Position]) -> None:
        """Touch every pool snapshot so the cache holds them (ApplyMove rounds churn it)."""
        for p in pool:
            await self.stub.LegalMoves(api.LegalMovesRequest(snapshot=p.snapshot),
                                       metadata=auth(p.seat_token))

    async def close(self) -> None:
        self.http.close()
        await self.channel.close()


def _summary(rs: list[dict[str, float]]) -> dict[str, Any]:
    return {
        "calls": sum(r["calls"] for r in rs),
        "rps": statistics.median(r["rps"] for r in rs),
        "p50_ms": statistics.median(r["p50_ms"] for r in rs),
        "p99_ms": statistics.median(r["p99_ms"] for r in rs),
        "server_cpu_us_per_call": statistics.median(r["server_cpu_us_per_call"] for r in rs),
        "client_cpu_us_per_call": statistics.median(r["client_cpu_us_per_call"] for r in rs),
        "rounds_rps": [round(r["rps"]) for r in rs],
    }


async def run(args: argparse.Namespace, warm: Target, cold: Target) -> dict[str, Any]:
    pool, mid_sizes = await build_pool(warm.stub, args.games, args.seed, args.pool)
    await check_scopes(warm.stub, pool)
    warm_loads, cold_loads = warm.loads(pool), cold.loads(pool)
    rounds: dict[str, list[dict[str, float]]] = {}
    for _ in range(args.rounds):
        await warm.warm(pool)
        plan = [(name, warm, call) for name, call in warm_loads.items()]
        plan += [(f"cold {name}", cold, call) for name, call in cold_loads.items()
                 if name not in (CHECK, HEALTHZ)]
        for name, target, call in plan:
            if "http." in name:
                await target.http.open()
            rounds.setdefault(name, []).append(await closed_loop(call, args.seconds, target.pid))
    out: dict[str, Any] = {"workloads": {n: _summary(rs) for n, rs in rounds.items()},
                           "ratios": {}, "targets": {}, "cold_ratios": {},
                           "server_cpu_ratios": {}}

    def ratio(name: str, base: str, key: str, invert: bool = False) -> float:
        # per round, so the two figures come from neighbouring seconds; then the median
        each = [(b[key] / a[key]) if invert else (a[key] / b[key])
                for a, b in zip(rounds[name], rounds[base], strict=True)]
        return statistics.median(each)

    for name, base, target in PAIRS:
        out["ratios"][f"{name} / {base}"] = ratio(name, base, "rps")
        out["targets"][f"{name} / {base}"] = target
        out["cold_ratios"][f"cold {name} / {base}"] = ratio(f"cold {name}", base, "rps")
        out["server_cpu_ratios"][f"{name} / {base}"] = ratio(
            name, base, "server_cpu_us_per_call", invert=True)
    mid_sizes.sort()
    out["snapshot_bytes_classic4_mid_hand"] = {
        "games": len(mid_sizes), "min": mid_sizes[0], "median": statistics.median(mid_sizes),
        "max": mid_sizes[-1], "target_max": TARGET_SNAPSHOT}
    out["pool_positions"] = len(pool)
    return out


def report(result: dict[str, Any]) -> None:
    out = sys.stdout
    out.write(f"{'workload':40} {'calls/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'server µs/call':>15} {'client µs/call':>15}\n")
    for name, w in result["workloads"].items():
        out.write(f"{name:40} {w['rps']:9.0f} {w['p50_ms']:8.2f} {w['p99_ms']:8.2f} "
                  f"{w['server_cpu_us_per_call']:15.0f} {w['client_cpu_us_per_call']:15.0f}\n")
    for name, ratio in result["ratios"].items():
        target = result["targets"][name]
        flag = ("(host token: for information)" if target is None else "ok" if ratio >= target
                else f"BELOW target {target}")
        shown = "" if target is None else f" (target >= {target})"
        out.write(f"ratio {name + shown:72} {ratio:5.3f}  {flag}\n")
    for name, ratio in result["cold_ratios"].items():
        out.write(f"ratio {name:72} {ratio:5.3f}  (no state cache: every snapshot opened)\n")
    for name, ratio in result["server_cpu_ratios"].items():
        out.write(f"server CPU ratio {name:61} {ratio:5.3f}  (health CPU / call CPU)\n")
    setup = result.get("setup", {})
    if setup:
        out.write(f"server: engine {setup['engine']}, CANASTA_ACCESS={setup['access']}, "
                  f"gRPC engine threads {setup['grpc_threads']}; load average before/after: "
                  f"{setup['loadavg_1m_before']} / {setup['loadavg_1m_after']} on "
                  f"{setup['cpus']} CPUs\n")
    s = result["snapshot_bytes_classic4_mid_hand"]
    flag = "ok" if s["max"] <= TARGET_SNAPSHOT else "OVER target"
    out.write(f"sealed classic 4-player mid-hand snapshot: median {s['median']} B, "
              f"max {s['max']} B over {s['games']} games (target <= {TARGET_SNAPSHOT} B) {flag}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per workload and round")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", type=int, default=8, help="games played for the pool")
    parser.add_argument("--pool", type=int, default=300, help="positions in the pool")
    parser.add_argument("--grpc-threads", type=int, default=None,
                        help="CANASTA_GRPC_THREADS of the servers (default: theirs, 2)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    key = new_key_entry("bench")
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            warm_proc, warm_ports = _start_server(False, Path(tmp), key, args.grpc_threads)
            procs.append(warm_proc)
            cold_proc, cold_ports = _start_server(True, Path(tmp), key, args.grpc_threads)
            procs.append(cold_proc)

            async def both() -> dict[str, Any]:
                warm = Target(warm_ports, warm_proc.pid)
                cold = Target(cold_ports, cold_proc.pid)
                try:
                    return await run(args, warm, cold)
                finally:
                    await warm.close()
                    await cold.close()

            load_before = os.getloadavg()
            result = asyncio.run(both())
            listening = _listening(Path(tmp) / "warm.log")
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
    result["setup"] = {
        "in_flight": IN_FLIGHT, "seconds_per_round": args.seconds, "rounds": args.rounds,
        "server": "python -m service (default settings, CANASTA_ACCESS=tokens; cold rows: "
                  "CANASTA_STATE_CACHE=0)",
        "credentials": "(seat) rows: the seat token of the seat in turn, no view_seat; "
                       "(host) rows: the game's host token, no view_seat (every view)",
        "engine": listening.get("engine", "?"), "access": listening.get("access", "?"),
        "grpc_threads": listening.get("grpc_threads", "?"),
        "client": "one Python process: grpc.aio channel / raw HTTP/1.1 keep-alive",
        "cpus": os.cpu_count(), "python": platform.python_version(),
        "loadavg_1m_before": round(load_before[0], 2),
        "loadavg_1m_after": round(os.getloadavg()[0], 2),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    report(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    sys.stdout.write(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
