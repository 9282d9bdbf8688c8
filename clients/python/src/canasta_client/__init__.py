"""Python client of the ``canasta.v1`` Canasta rules service.

The generated messages and stubs are in ``canasta.v1`` (``game_pb2``,
``engine_service_pb2``, ``engine_service_pb2_grpc``); this package adds a client
with deadlines and typed errors.
"""

from canasta.v1.engine_service_pb2 import (
    ApplyMoveResponse,
    DealResponse,
    GetViewResponse,
    LegalMovesResponse,
    NextDealResponse,
    ScoreHandResponse,
)
from canasta.v1.game_pb2 import Move, SeatView

from canasta_client._version import __version__
from canasta_client.client import DEFAULT_TIMEOUT, CanastaClient, move
from canasta_client.errors import (
    CanastaError,
    DeadlineExceededError,
    InvalidRequestError,
    PermissionDeniedError,
    RuleViolationError,
    StaleSnapshotError,
    UnauthenticatedError,
    UnavailableError,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "ApplyMoveResponse",
    "CanastaClient",
    "CanastaError",
    "DealResponse",
    "DeadlineExceededError",
    "GetViewResponse",
    "InvalidRequestError",
    "LegalMovesResponse",
    "Move",
    "NextDealResponse",
    "PermissionDeniedError",
    "RuleViolationError",
    "ScoreHandResponse",
    "SeatView",
    "StaleSnapshotError",
    "UnauthenticatedError",
    "UnavailableError",
    "__version__",
    "move",
]
