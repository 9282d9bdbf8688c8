"""Latency beside slow clients: 300 connections trickle their headers (a byte every half
second each) while one caller times REST and gRPC ``LegalMoves`` (a seat's own moves),
against the same calls on the same server with no slow connection, in one run.

The goal (step 10): with all 300 open, the median and the 90th percentile stay under
100 ms. tests/hardening/test_http_limits.py checks what must hold whatever the timing
(every call answered while the 300 are held, then each closed by the header limit); the
figures live here. Prints a table and writes ``bench/results/slow_clients.json``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from serve import start_service  # noqa: E402

from service.api.pb import api, api_grpc  # noqa: E402
from service.sealing.keys import new_key_entry  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "slow_clients.json"


def _timed(calls: int, http: httpx.Client, stub: api_grpc.CanastaEngineStub, snapshot: bytes,
           token: str) -> dict[str, list[float]]:
    body = {"snapshot": base64.b64encode(snapshot).decode()}
    bearer = {"authorization": f"Bearer {token}"}
    out: dict[str, list[float]] = {"REST": [], "gRPC": []}
    request = api.LegalMovesRequest(snapshot=snapshot)
    for _ in range(calls):
        t = time.perf_counter()
        assert http.post("/v1/legal-moves", json=body, headers=bearer).status_code == 200
        out["REST"].append(time.perf_counter() - t)
        t = time.perf_counter()
        stub.LegalMoves(request, metadata=(("authorization", f"Bearer {token}"),), timeout=10)
        out["gRPC"].append(time.perf_counter() - t)
    return out


def _row(face: str, beside: str, times: list[float]) -> dict[str, object]:
    times = sorted(times)
    return {"face": face, "beside": beside, "calls": len(times),
            "median_ms": round(statistics.median(times) * 1000, 2),
            "p90_ms": round(times[int(len(times) * 0.9)] * 1000, 2),
            "worst_ms": round(times[-1] * 1000, 2)}


def run(slow_count: int, calls: int) -> list[dict[str, object]]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, ports = start_service(Path(tmp), "slow", {
            "CANASTA_SEAL_KEYS": new_key_entry("bench-slow"), "CANASTA_ACCESS_LOG": "false",
            "CANASTA_HTTP_HEADER_TIMEOUT_S": "60"})
        slow: list[socket.socket] = []
        stop = threading.Event()
        try:
            base = f"http://127.0.0.1:{ports['http_port']}"
            with httpx.Client(base_url=base, timeout=10) as http, \
                    grpc.insecure_channel(f"127.0.0.1:{ports['grpc_port']}") as channel:
                stub = api_grpc.CanastaEngineStub(channel)
                deal = stub.Deal(api.DealRequest(variant="classic", players=4, seed=5))
                token = deal.seat_tokens[deal.views[0].awaited]
                _timed(20, http, stub, deal.snapshot, token)  # warm up
                quiet = _timed(calls, http, stub, deal.snapshot, token)
                for _ in range(slow_count):
                    sock = socket.create_connection(("127.0.0.1", ports["http_port"]))
                    sock.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    sock.setblocking(False)
                    slow.append(sock)

                def trickle() -> None:
                    while not stop.wait(0.5):
                        for sock in slow:
                            with contextlib.suppress(OSError):
                                sock.send(b"a")

                threading.Thread(target=trickle, daemon=True).start()
                busy = _timed(calls, http, stub, deal.snapshot, token)
        finally:
            stop.set()
            for sock in slow:
                sock.close()
            proc.terminate()
            proc.wait(20)
    return [_row(face, beside, times[face])
            for beside, times in (("none", quiet), (f"{slow_count} slow", busy))
            for face in ("REST", "gRPC")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slow", type=int, default=300, help="slow connections")
    parser.add_argument("--calls", type=int, default=200, help="timed calls per face")
    args = parser.parse_args()
    rows = run(args.slow, args.calls)
    keys = list(rows[0])
    print(" | ".join(f"{k:>10}" for k in keys))
    for row in rows:
        print(" | ".join(f"{row[k]!s:>10}" for k in keys))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(rows, indent=2) + "\n")
    print(f"written {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
