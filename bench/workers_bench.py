"""Worker benchmark: throughput of ``CANASTA_WORKERS=1`` against ``CANASTA_WORKERS=2``.

Starts two servers (``python -m service`` with 1 and with 2 workers sharing
their ports through SO_REUSEPORT; otherwise default settings but a state cache
that holds the pool on either side, see ``STATE_CACHE``; by default each runs the
gRPC server the product picks for it, ``CANASTA_GRPC_THREADS=auto``: grpc.aio
alone, a thread pool in each worker of a group, and ``--grpc-threads`` sets
both alike for comparison), builds a pool of
real classic 4-player positions (played through the API by their host), then
drives both alike with a closed-loop load generator, every call with its game's
host token (``CANASTA_ACCESS=tokens``, the default), and reports calls/s,
latency, CPU and the 2-vs-1 ratio per workload:

* ``grpc LegalMoves`` — 16 HTTP/2 connections × 4 calls in flight;
* ``grpc ApplyMove`` — the same, for a call with more engine work (and a seal);
* ``http POST /v1/legal-moves`` — 32 keep-alive HTTP/1.1 connections.

The load generator must cost much less CPU per call than the servers, since
all share the machine's cores: it is ``bench/loadgen/loadgen.c`` (C, raw HTTP/2
and HTTP/1.1, one thread per connection; built here with ``cc`` on first use
into ``.venv/bin``). Without a C compiler the script falls back to two Python
client processes, which cost about as much as a server per call and so
understate the gain (the report says which was used). Rounds alternate
1 and 2 workers, so load from other processes hits both alike; each ratio is
the median of per-round ratios; each side's state cache miss ratio is reported,
so that both are seen to do the same work per call. After the runs, /metrics of
the 2-worker server must count every call of both workers (Prometheus
multiprocess mode).
Writes ``bench/results/workers.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import platform
import resource
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc
import httpx
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from serve import start_service  # noqa: E402
from service_bench import Position, build_pool  # noqa: E402

from service.config import Settings  # noqa: E402
from service.keys import new_key_entry  # noqa: E402
from service.pb import api, api_grpc  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "workers.json"
LOADGEN_SRC = ROOT / "bench" / "loadgen" / "loadgen.c"
LOADGEN = ROOT / ".venv" / "bin" / "canasta-loadgen"
TARGET_RATIO = 1.5
CLK_TCK = os.sysconf("SC_CLK_TCK")
WORKLOADS = {
    # name: (mode, gRPC method or HTTP path, connections, calls in flight per connection)
    "grpc LegalMoves": ("grpc", "/canasta.v1.CanastaEngine/LegalMoves", 16, 4),
    "grpc ApplyMove": ("grpc-apply", "/canasta.v1.CanastaEngine/ApplyMove", 16, 4),
    "http POST /v1/legal-moves": ("http", "/v1/legal-moves", 32, 1),
}


# --- servers ------------------------------------------------------------------------------


# Each worker keeps its own state cache, and each HTTP/2 connection stays on one worker.
# The load generator walks the pool from a different start on each connection, so a worker
# holding a few connections with nearby starts revisits a position only after k x pool calls,
# each of which (ApplyMove) caches a new state: with the default 1024 entries the 2-worker
# server then reopened 12-18% of the pool's snapshots cold where the 1-worker server reopened
# none (canasta_state_cache_lookups_total), i.e. more work per call. Both servers get a cache
# that holds the pool for any split of the connections, so both do the same work per call;
# the report shows each side's miss ratio.
STATE_CACHE = 8192


def start_server(workers: int, key: str, tmp: Path,
                 grpc_threads: str) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    return start_service(tmp, f"{workers}-worker",
                         {"CANASTA_SEAL_KEYS": key, "CANASTA_WORKERS": str(workers),
                          "CANASTA_STATE_CACHE": str(STATE_CACHE),
                          "CANASTA_GRPC_THREADS": grpc_threads}, timeout=90)


def grpc_server_kind(workers: int, grpc_threads: str) -> str:
    """Which gRPC server the workers of a ``workers``-process group run."""
    settings = Settings.from_env({"CANASTA_GRPC_THREADS": grpc_threads})
    threads = settings.grpc_threads_for(workers > 1)
    return f"thread pool of {threads}" if threads else "grpc.aio"


def tree_cpu(pid: int) -> float:
    """utime + stime of a process and its children (the supervisor's workers)."""
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


# --- requests -----------------------------------------------------------------------------


def records(items: list[bytes]) -> bytes:
    return b"".join(struct.pack(">I", len(b)) + b for b in items)


def write_requests(pool: list[Position], tmp: Path) -> tuple[dict[str, Path], Path]:
    """The request files of the workloads, and the file of each request's credential (the
    same for every workload: request i is of pool position i)."""
    grpc_file, apply_file, http_file = tmp / "grpc.bin", tmp / "apply.bin", tmp / "http.bin"
    grpc_file.write_bytes(records([api.LegalMovesRequest(snapshot=p.snapshot)
                                   .SerializeToString() for p in pool]))
    apply_file.write_bytes(records([api.ApplyMoveRequest(snapshot=p.snapshot, move=p.move)
                                    .SerializeToString() for p in pool]))
    http_file.write_bytes(records([json.dumps({"snapshot": base64.b64encode(p.snapshot)
                                               .decode()}).encode() for p in pool]))
    auth_file = tmp / "auth.bin"
    auth_file.write_bytes(records([f"Bearer {p.host_token}".encode() for p in pool]))
    return {"grpc": grpc_file, "grpc-apply": apply_file, "http": http_file}, auth_file


async def make_pool(grpc_port: int, games: int, seed: int, size: int) -> list[Position]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        pool, _ = await build_pool(api_grpc.CanastaEngineStub(channel), games, seed, size)
    return pool


# --- load generators ----------------------------------------------------------------------


def c_loadgen() -> Path | None:
    """The C load generator, built on first use (or after its source changes)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    if not LOADGEN.exists() or LOADGEN.stat().st_mtime < LOADGEN_SRC.stat().st_mtime:
        sys.stdout.write("building bench/loadgen/loadgen.c ...\n")
        sys.stdout.flush()
        LOADGEN.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([cc, "-O2", "-pthread", "-o", str(LOADGEN), str(LOADGEN_SRC)],
                       check=True)
    return LOADGEN


def run_load(loadgen: Path | None, mode: str, port: int, method: str, requests: Path,
             auth: Path, conns: int, streams: int, warmup: float,
             seconds: float) -> dict[str, Any]:
    common = ["-mode", mode, "-target", f"127.0.0.1:{port}", "-method", method,
              "-requests", str(requests), "-auth", str(auth), "-streams", str(streams)]
    if loadgen is not None:
        out = subprocess.run([str(loadgen), *common, "-conns", str(conns), "-warmup",
                              f"{warmup}s", "-duration", f"{seconds}s"],
                             capture_output=True, text=True, check=True,
                             timeout=warmup + seconds + 60)
        result: dict[str, Any] = json.loads(out.stdout)
        return result
    # Fallback: two Python client processes, each with half the connections.
    half = max(1, conns // 2)
    args = [f"-{a}" if a.startswith("-") else a for a in common]
    args += ["--conns", str(half), "--warmup", str(warmup), "--duration", str(seconds)]
    procs = [subprocess.Popen([sys.executable, __file__, "--client", *args],
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    parts = [json.loads(p.communicate(timeout=warmup + seconds + 60)[0]) for p in procs]
    calls = sum(p["calls"] for p in parts)
    secs = max(p["seconds"] for p in parts)
    return {"calls": calls, "errors": sum(p["errors"] for p in parts), "seconds": secs,
            "rps": sum(p["rps"] for p in parts),
            "p50_ms": statistics.median(p["p50_ms"] for p in parts),
            "p99_ms": max(p["p99_ms"] for p in parts),
            "client_cpu_seconds": sum(p["client_cpu_seconds"] for p in parts),
            "conns": half * 2, "in_flight": sum(p["in_flight"] for p in parts)}


async def python_client(a: argparse.Namespace) -> dict[str, Any]:
    """The fallback client: the same closed loop as the C tool, in one Python process."""
    def read(path: str) -> list[bytes]:
        data = Path(path).read_bytes()
        out: list[bytes] = []
        while data:
            (n,), data = struct.unpack(">I", data[:4]), data[4:]
            out.append(data[:n])
            data = data[n:]
        return out

    reqs = read(a.requests)
    auths = [v.decode() for v in read(a.auth)]
    assert len(auths) == len(reqs), "one credential per request"
    latencies: list[float] = []
    state = {"measuring": False, "stop": False, "errors": 0}
    calls: list[Any] = []
    closers: list[Any] = []
    if a.mode == "grpc":
        for _ in range(a.conns):
            channel = grpc.aio.insecure_channel(
                a.target, options=[("grpc.use_local_subchannel_pool", 1)])
            closers.append(channel.close)
            grpc_call = channel.unary_unary(a.method)

            async def call(body: bytes, credential: str, grpc_call: Any = grpc_call) -> None:
                await grpc_call(body, metadata=(("authorization", credential),))

            calls += [call] * a.streams
    else:
        host, port = a.target.rsplit(":", 1)
        for _ in range(a.conns):
            reader, writer = await asyncio.open_connection(host, int(port))
            closers.append(writer.close)

            async def http_call(body: bytes, credential: str, reader: Any = reader,
                                writer: Any = writer) -> None:
                writer.write((f"POST {a.method} HTTP/1.1\r\nHost: bench\r\nContent-Type: "
                              f"application/json\r\nAuthorization: {credential}\r\n"
                              f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                await reader.readexactly(length)
                if not head.startswith(b"HTTP/1.1 200"):
                    raise RuntimeError(head.split(b"\r\n", 1)[0].decode())

            calls.append(http_call)

    async def loop(w: int) -> None:
        i = w
        while not state["stop"]:
            t0 = time.perf_counter()
            try:
                await calls[w](reqs[i % len(reqs)], auths[i % len(reqs)])
                if state["measuring"]:
                    latencies.append(time.perf_counter() - t0)
            except Exception:  # noqa: BLE001 - counted, like the C tool
                if state["measuring"]:
                    state["errors"] += 1
            i += len(calls)

    tasks = [asyncio.create_task(loop(w)) for w in range(len(calls))]
    await asyncio.sleep(a.warmup)
    usage0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    state["measuring"] = True
    await asyncio.sleep(a.duration)
    state["measuring"] = False
    elapsed = time.perf_counter() - t0
    usage1 = resource.getrusage(resource.RUSAGE_SELF)
    state["stop"] = True
    await asyncio.gather(*tasks, return_exceptions=True)
    for close in closers:
        result = close()
        if asyncio.iscoroutine(result):
            await result
    latencies.sort()
    n = len(latencies)
    return {"calls": n, "errors": state["errors"], "seconds": elapsed, "rps": n / elapsed,
            "p50_ms": latencies[n // 2] * 1e3 if n else 0.0,
            "p99_ms": latencies[min(n - 1, n * 99 // 100)] * 1e3 if n else 0.0,
            "client_cpu_seconds": (usage1.ru_utime + usage1.ru_stime)
            - (usage0.ru_utime + usage0.ru_stime), "in_flight": len(calls)}


# --- the benchmark ------------------------------------------------------------------------


def server_counts(http_port: int) -> tuple[float, float, float]:
    """Calls of the benchmarked RPCs counted by /metrics, and state cache hits and misses."""
    text = httpx.get(f"http://127.0.0.1:{http_port}/metrics", timeout=30).text
    total = hits = misses = 0.0
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "grpc_server_handled_total" and s.labels.get("grpc_method") in \
                    ("LegalMoves", "ApplyMove"):
                total += s.value
            if s.name == "http_requests_total" and s.labels.get("route") == "/v1/legal-moves":
                total += s.value
            if s.name == "canasta_state_cache_lookups_total":
                if s.labels.get("result") == "hit":
                    hits += s.value
                else:
                    misses += s.value
    return total, hits, misses


def run(args: argparse.Namespace) -> dict[str, Any]:
    key = new_key_entry("bench")
    loadgen = None if args.python_clients else c_loadgen()
    procs: dict[int, subprocess.Popen[bytes]] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        try:
            ports: dict[int, dict[str, Any]] = {}
            for n in (1, 2):
                procs[n], ports[n] = start_server(n, key, tmp, args.grpc_threads)
            pool = asyncio.run(make_pool(ports[1]["grpc_port"], args.games, args.seed,
                                         args.pool))
            files, auth = write_requests(pool, tmp)
            before_calls = server_counts(ports[2]["http_port"])[0]
            load_before = os.getloadavg()[0]
            rounds: dict[str, dict[int, list[dict[str, Any]]]] = {}
            for r in range(args.rounds):
                for name, (mode, method, conns, streams) in WORKLOADS.items():
                    for n in ((1, 2) if r % 2 == 0 else (2, 1)):
                        wire = "http" if mode == "http" else "grpc"
                        port = ports[n][f"{wire}_port"]
                        _, hits0, misses0 = server_counts(ports[n]["http_port"])
                        cpu0 = tree_cpu(procs[n].pid)
                        res = run_load(loadgen, wire, port, method, files[mode], auth, conns,
                                       streams, args.warmup, args.seconds)
                        # server CPU over warm-up + measurement, per measured-rate call
                        cpu = tree_cpu(procs[n].pid) - cpu0
                        _, hits1, misses1 = server_counts(ports[n]["http_port"])
                        res["cache_hits"], res["cache_misses"] = hits1 - hits0, misses1 - misses0
                        window = args.warmup + args.seconds
                        res["server_cores"] = cpu / window
                        res["server_cpu_us_per_call"] = cpu / max(1.0, res["rps"] * window) * 1e6
                        res["client_cpu_us_per_call"] = (res["client_cpu_seconds"]
                                                         / max(1, res["calls"]) * 1e6)
                        rounds.setdefault(name, {}).setdefault(n, []).append(res)
                        sys.stdout.write(f"round {r + 1}/{args.rounds} {name:28} {n} worker(s): "
                                         f"{res['rps']:7.0f} calls/s, {res['errors']} errors\n")
                        sys.stdout.flush()
            counted = server_counts(ports[2]["http_port"])[0] - before_calls
            sent = sum(res["calls"] for per in rounds.values() for res in per[2])
            load_after = os.getloadavg()[0]
        finally:
            for proc in procs.values():
                proc.send_signal(signal.SIGTERM)
            for proc in procs.values():
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
    out: dict[str, Any] = {"workloads": {}, "ratios": {}}
    for name, per in rounds.items():
        out["workloads"][name] = {str(n): _summary(results) for n, results in per.items()}
        out["ratios"][name] = statistics.median(
            b["rps"] / a["rps"] for a, b in zip(per[1], per[2], strict=True) if a["rps"])
    out["metrics_check"] = {
        "calls_measured_by_clients_2_workers": sent,
        "calls_counted_by_metrics_2_workers": counted,
        "note": "metrics also count warm-up calls, so counted >= measured"}
    out["setup"] = {
        "load_generator": "bench/loadgen/loadgen.c (C; raw HTTP/2 and HTTP/1.1)" if loadgen
        else "2 Python client processes (fallback; they understate the gain)",
        "workloads": {n: {"mode": m, "target": t, "connections": c, "in_flight_per_conn": s}
                      for n, (m, t, c, s) in WORKLOADS.items()},
        "rounds": args.rounds, "warmup_s": args.warmup, "seconds_per_run": args.seconds,
        "pool_positions": len(pool), "cpus": os.cpu_count(), "python": platform.python_version(),
        "credentials": "every call with its game's host token",
        "server": "python -m service, default settings but CANASTA_WORKERS=1 or 2, "
                  f"CANASTA_STATE_CACHE={STATE_CACHE} and "
                  f"CANASTA_GRPC_THREADS={args.grpc_threads}",
        "grpc_server": {str(n): grpc_server_kind(n, args.grpc_threads) for n in (1, 2)},
        "loadavg_1m_before": round(load_before, 2), "loadavg_1m_after": round(load_after, 2),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    return out


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    def med(key: str) -> float:
        return float(statistics.median(r[key] for r in results))

    return {"rps": med("rps"), "p50_ms": med("p50_ms"), "p99_ms": med("p99_ms"),
            "server_cores": med("server_cores"),
            "server_cpu_us_per_call": med("server_cpu_us_per_call"),
            "client_cpu_us_per_call": med("client_cpu_us_per_call"),
            "errors": sum(r["errors"] for r in results),
            "state_cache_miss_ratio": sum(r["cache_misses"] for r in results)
            / max(1.0, sum(r["cache_hits"] + r["cache_misses"] for r in results)),
            "rounds_rps": [round(r["rps"]) for r in results]}


def report(result: dict[str, Any]) -> None:
    out = sys.stdout
    out.write(f"\n{'workload':28} {'workers':>7} {'calls/s':>9} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'server cores':>12} {'server µs/call':>14} {'client µs/call':>14} "
              f"{'cache miss':>10}  rounds\n")
    for name, per in result["workloads"].items():
        for n, w in per.items():
            out.write(f"{name:28} {n:>7} {w['rps']:9.0f} {w['p50_ms']:7.2f} {w['p99_ms']:7.2f} "
                      f"{w['server_cores']:12.2f} {w['server_cpu_us_per_call']:14.0f} "
                      f"{w['client_cpu_us_per_call']:14.0f} "
                      f"{w['state_cache_miss_ratio']:10.1%}  {w['rounds_rps']}\n")
    for name, ratio in result["ratios"].items():
        flag = "ok" if ratio >= TARGET_RATIO else f"BELOW target {TARGET_RATIO}"
        out.write(f"ratio 2 workers / 1 worker, {name:28} {ratio:5.2f}  {flag}\n")
    m = result["metrics_check"]
    out.write(f"/metrics of the 2-worker server counted {m['calls_counted_by_metrics_2_workers']:.0f}"
              f" calls (clients measured {m['calls_measured_by_clients_2_workers']}, plus warm-up)\n")
    s = result["setup"]
    out.write(f"gRPC server (CANASTA_GRPC_THREADS={s['server'].rsplit('=', 1)[1]}): "
              f"1 worker {s['grpc_server']['1']}, 2 workers {s['grpc_server']['2']} each\n")
    out.write(f"load generator: {s['load_generator']}; load average before/after: "
              f"{s['loadavg_1m_before']} / {s['loadavg_1m_after']} on {s['cpus']} CPUs\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured time per run")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=4, help="games played for the pool")
    parser.add_argument("--pool", type=int, default=300, help="positions in the pool")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--grpc-threads", default="auto",
                        help="CANASTA_GRPC_THREADS of both servers (default: auto, the product's)")
    parser.add_argument("--python-clients", action="store_true",
                        help="use the Python fallback clients even if a C compiler is there")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    parser.add_argument("--target", help=argparse.SUPPRESS)
    parser.add_argument("--method", help=argparse.SUPPRESS)
    parser.add_argument("--requests", help=argparse.SUPPRESS)
    parser.add_argument("--auth", help=argparse.SUPPRESS)
    parser.add_argument("--conns", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--streams", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--duration", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client:  # one fallback client process (run_load starts two)
        sys.stdout.write(json.dumps(asyncio.run(python_client(args))) + "\n")
        return 0
    result = run(args)
    report(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    shown = args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out
    sys.stdout.write(f"wrote {shown}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
