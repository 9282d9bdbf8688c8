"""Worst cases: the largest positions ImportPosition accepts, per variant, and what one
LegalMoves call costs on them (docs/operations.md, *Worst cases*; engine/bounds.py).

Each position of ``tests/worst_positions.py`` is imported through the service core,
then LegalMoves is answered as REST (JSON) and as gRPC (the message) with no state
cache, so every call opens the snapshot and lists the moves afresh: the server time
of a call nobody answered before. Positions with options that allow longer lists
(``PAGED``) answer their first page (at most 1,000 moves; the whole list is listed
to cut it). Prints a table (target: a median under 50 ms and
under 256 KB of JSON each; the maximum is printed beside it) and writes
``bench/results/limits.json``.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from service.api.core import Call, Core, SnapshotRequest  # noqa: E402
from service.api.pb import api  # noqa: E402
from service.sealing.keys import KeyRing, new_key_entry  # noqa: E402
from service.sealing.snapshot import Sealer  # noqa: E402
from tests.worst_positions import PAGED, WORST  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "limits.json"
TARGET_MS = 50.0
TARGET_BYTES = 256 * 1024
REPEAT = 15


def measure(core: Core, position: str) -> dict[str, Any]:
    imported = core.handle("ImportPosition", api.ImportPositionRequest(
        position=position, view_seat=-1), Call())
    assert isinstance(imported, api.ImportPositionResponse)
    host = Call(authorization=(f"Bearer {imported.host_token}",))
    rest_ms, grpc_ms = [], []
    body = b""
    size = 0
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        body = core.handle_json("LegalMoves", SnapshotRequest(imported.snapshot), host)
        rest_ms.append((time.perf_counter() - t0) * 1e3)
        t0 = time.perf_counter()
        msg = core.handle("LegalMoves", api.LegalMovesRequest(snapshot=imported.snapshot), host)
        size = len(msg.SerializeToString())
        grpc_ms.append((time.perf_counter() - t0) * 1e3)
    answer = json.loads(body)
    return {"moves": answer["totalSize"], "page": len(answer["moves"]), "json_bytes": len(body),
            "protobuf_bytes": size,
            "rest_ms_median": statistics.median(rest_ms), "rest_ms_max": max(rest_ms),
            "grpc_ms_median": statistics.median(grpc_ms), "grpc_ms_max": max(grpc_ms)}


def main() -> int:
    core = Core(Sealer(KeyRing.parse(new_key_entry("limits")), cache_size=0))
    rows = {name: measure(core, text) for name, text in sorted({**WORST, **PAGED}.items())}
    out = sys.stdout
    out.write(f"{'worst case':36} {'moves':>6} {'page':>5} {'JSON KB':>8} {'pb KB':>7} "
              f"{'REST ms p50/max':>16} {'gRPC ms p50/max':>16}\n")
    ok = True
    for name, r in rows.items():
        # the target is on the median: a maximum of 15 calls on a shared machine is noise
        good = max(r["rest_ms_median"], r["grpc_ms_median"]) < TARGET_MS and \
            r["json_bytes"] < TARGET_BYTES
        ok = ok and good
        out.write(f"{name:36} {r['moves']:6d} {r['page']:5d} {r['json_bytes'] / 1024:8.1f} "
                  f"{r['protobuf_bytes'] / 1024:7.1f} "
                  f"{r['rest_ms_median']:7.1f}/{r['rest_ms_max']:<8.1f} "
                  f"{r['grpc_ms_median']:7.1f}/{r['grpc_ms_max']:<8.1f}"
                  f"{'' if good else '  OVER target'}\n")
    out.write(f"targets: under {TARGET_MS:.0f} ms of server time and {TARGET_BYTES // 1024} KB "
              f"of JSON each: {'met' if ok else 'NOT met'} (engine {engine.BUILD})\n")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({
        "positions": rows, "targets": {"ms": TARGET_MS, "json_bytes": TARGET_BYTES},
        "met": ok, "engine": engine.BUILD, "python": platform.python_version(),
        "repeat": REPEAT, "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        indent=2) + "\n")
    out.write(f"wrote {RESULTS.relative_to(ROOT)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
