"""Typed errors: every failed call raises a :class:`CanastaError` carrying the server's reason.

The service sends a ``google.rpc.Status`` in the ``grpc-status-details-bin``
trailer; its ``google.rpc.ErrorInfo.reason`` is the stable code to branch on
(``SNAPSHOT_INVALID``, ``NOT_YOUR_TURN``, ``WRONG_PHASE``, ...; see the service's
docs/api.md and docs/errors.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import grpc
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

STATUS_DETAILS_KEY = "grpc-status-details-bin"
REQUEST_ID_KEY = "x-request-id"


class CanastaError(Exception):
    """A call failed. ``reason`` is ``ErrorInfo.reason`` (empty when the server sent none).

    ``retry_after`` is the server's ``google.rpc.RetryInfo``: the seconds to wait before
    sending the call again, given when it refused the call for load (``TOO_MANY_CALLS``),
    ``None`` when it said nothing (or sent a negative delay, which is malformed: 0 is
    "at once").
    """

    def __init__(self, code: grpc.StatusCode, message: str, reason: str = "", domain: str = "",
                 metadata: dict[str, str] | None = None,
                 field_violations: list[tuple[str, str]] | None = None,
                 retry_after: float | None = None, echoed_request_id: str | None = None) -> None:
        super().__init__(f"{code.name} {reason or '-'}: {message}")
        self.code = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.metadata: dict[str, str] = dict(metadata or {})
        self.field_violations: list[tuple[str, str]] = list(field_violations or [])
        self.retry_after = retry_after
        self._echoed_request_id = echoed_request_id or None

    @property
    def rule(self) -> str | None:
        """The rule id an engine refusal enforces (``ErrorInfo.metadata["rule"]``), if any."""
        return self.metadata.get("rule")

    @property
    def request_id(self) -> str | None:
        """The server's request id of the failed call, if it sent one: ErrorInfo's
        ``request_id``, else the ``x-request-id`` it echoed (a refusal without details)."""
        return self.metadata.get("request_id") or self._echoed_request_id


class InvalidRequestError(CanastaError):
    """INVALID_ARGUMENT: malformed input, or a foreign/tampered snapshot (``SNAPSHOT_INVALID``)."""


class RuleViolationError(CanastaError):
    """FAILED_PRECONDITION: a well-formed move the rules forbid now (``WRONG_PHASE``, ...)."""


class StaleSnapshotError(CanastaError):
    """ABORTED: ``expected_seq`` did not match the snapshot's seq (``SNAPSHOT_STALE``), or
    ``expected_game_id`` its game (``SNAPSHOT_WRONG_GAME``)."""


class UnauthenticatedError(CanastaError):
    """UNAUTHENTICATED: the call needs a credential (``CREDENTIAL_REQUIRED``) or its token
    is not one of this game's (``CREDENTIAL_INVALID``, ``CREDENTIAL_KEY_RETIRED``,
    ``CREDENTIAL_VERSION_UNSUPPORTED``)."""


class PermissionDeniedError(CanastaError):
    """PERMISSION_DENIED: the credential's seat may not do this (``SEAT_NOT_ALLOWED``), or
    the server's policy refuses the call (``EXPORT_DISABLED``)."""


class ResourceExhaustedError(CanastaError):
    """RESOURCE_EXHAUSTED: a limit of the server, such as its calls in flight
    (``TOO_MANY_CALLS``: wait ``retry_after`` seconds and send it again)."""


class DeadlineExceededError(CanastaError):
    """DEADLINE_EXCEEDED: the call's timeout passed."""


class UnavailableError(CanastaError):
    """UNAVAILABLE: the server could not be reached (safe to retry: every RPC is pure)."""


_BY_CODE: dict[grpc.StatusCode, type[CanastaError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidRequestError,
    grpc.StatusCode.FAILED_PRECONDITION: RuleViolationError,
    grpc.StatusCode.ABORTED: StaleSnapshotError,
    grpc.StatusCode.UNAUTHENTICATED: UnauthenticatedError,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDeniedError,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhaustedError,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceededError,
    grpc.StatusCode.UNAVAILABLE: UnavailableError,
}


def echoed_request_id(trailers: Iterable[Any] | None) -> str | None:
    """The ``x-request-id`` the server echoed in a call's trailers (its first), if any."""
    for item in trailers or ():
        key, value = cast("tuple[str, str | bytes]", item)  # (key, value) pairs
        if key == REQUEST_ID_KEY and isinstance(value, str) and value:
            return value
    return None


def from_rpc_error(err: grpc.RpcError) -> CanastaError:
    """The typed error of a failed call, decoded from its status-details trailer."""
    code: grpc.StatusCode = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
    message: str = (err.details() if hasattr(err, "details") else "") or ""
    trailers = err.trailing_metadata() if hasattr(err, "trailing_metadata") else None
    reason, domain = "", ""
    metadata: dict[str, str] = {}
    violations: list[tuple[str, str]] = []
    retry_after: float | None = None
    for item in trailers or ():
        key, value = cast("tuple[str, str | bytes]", item)  # (key, value) pairs
        if key != STATUS_DETAILS_KEY or not isinstance(value, bytes):
            continue
        try:
            status = status_pb2.Status.FromString(value)
        except DecodeError:  # a trailer that does not parse (a proxy, a broken server)
            continue
        message = status.message or message
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                reason, domain, metadata = info.reason, info.domain, dict(info.metadata)
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                violations += [(v.field, v.description) for v in bad.field_violations]
            elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                retry = error_details_pb2.RetryInfo()
                detail.Unpack(retry)
                delay = retry.retry_delay.ToTimedelta().total_seconds()
                # a negative delay is malformed: no hint, never "at once" (as in every SDK)
                retry_after = delay if delay >= 0 else None
    if not reason and code == grpc.StatusCode.DEADLINE_EXCEEDED:
        reason = "DEADLINE_EXCEEDED"
    cls = _BY_CODE.get(code, CanastaError)
    return cls(code, message, reason, domain, metadata, violations, retry_after,
               echoed_request_id(trailers))
