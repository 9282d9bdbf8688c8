"""The generated ``canasta.v1`` code (``make setup`` writes it to ``gen/python``).

Generated modules import each other absolutely (``from canasta.v1 import ...``),
so the generation root must be on ``sys.path``; this module puts it there once
and re-exports the modules under short names.
"""

from __future__ import annotations

import sys
from pathlib import Path

GEN_ROOT = Path(__file__).resolve().parents[2] / "gen" / "python"

if not (GEN_ROOT / "canasta" / "v1" / "engine_service_pb2.py").exists():
    raise ImportError(f"generated code missing in {GEN_ROOT}: run `make setup`")
if str(GEN_ROOT) not in sys.path:
    sys.path.insert(0, str(GEN_ROOT))

from canasta.v1 import engine_service_pb2 as api  # noqa: E402
from canasta.v1 import engine_service_pb2_grpc as api_grpc  # noqa: E402
from canasta.v1 import game_pb2 as game  # noqa: E402

SERVICE_NAME = "canasta.v1.CanastaEngine"

__all__ = ["GEN_ROOT", "SERVICE_NAME", "api", "api_grpc", "game"]
