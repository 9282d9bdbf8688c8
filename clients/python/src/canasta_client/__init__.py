"""Python client of the ``canasta.v1`` Canasta rules service.

The generated messages and stubs are in ``canasta.v1`` (``game_pb2``,
``engine_service_pb2``, ``engine_service_pb2_grpc``); this package adds a client
with deadlines, credentials, retries and typed errors: :class:`CanastaClient`, and
:class:`AsyncCanastaClient` for asyncio.
"""

from importlib.metadata import version

from canasta.v1.engine_service_pb2 import (
    ApplyMoveResponse,
    DealResponse,
    ExportPositionResponse,
    ExportRecordResponse,
    GetViewResponse,
    ImportPositionResponse,
    LegalMovesResponse,
    ListVariantsResponse,
    NextDealResponse,
    ScoreHandResponse,
    SuggestMoveResponse,
)
from canasta.v1.game_pb2 import Move, SeatView

from canasta_client._calls import DEFAULT_TIMEOUT, MAX_RETRY_WAIT, MAX_TIMEOUT, move
from canasta_client.aio import AsyncCanastaClient
from canasta_client.client import CanastaClient
from canasta_client.errors import (
    CanastaError,
    DeadlineExceededError,
    InvalidRequestError,
    PermissionDeniedError,
    ResourceExhaustedError,
    RuleViolationError,
    StaleSnapshotError,
    UnauthenticatedError,
    UnavailableError,
)

__version__ = version("canasta-client")
"""The installed distribution's version (clients/VERSION when it was built)."""

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_RETRY_WAIT",
    "MAX_TIMEOUT",
    "ApplyMoveResponse",
    "AsyncCanastaClient",
    "CanastaClient",
    "CanastaError",
    "DealResponse",
    "DeadlineExceededError",
    "ExportPositionResponse",
    "ExportRecordResponse",
    "GetViewResponse",
    "ImportPositionResponse",
    "InvalidRequestError",
    "LegalMovesResponse",
    "ListVariantsResponse",
    "Move",
    "NextDealResponse",
    "PermissionDeniedError",
    "ResourceExhaustedError",
    "RuleViolationError",
    "ScoreHandResponse",
    "SeatView",
    "StaleSnapshotError",
    "SuggestMoveResponse",
    "UnauthenticatedError",
    "UnavailableError",
    "__version__",
    "move",
]
