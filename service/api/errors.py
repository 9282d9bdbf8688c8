"""One error model for gRPC and REST: ``google.rpc.Status`` with an ``ErrorInfo``.

Every refusal is a :class:`ServiceError` carrying a gRPC code, a stable reason
(the engine's :class:`~engine.errors.Reason` or a :class:`ServiceReason`), an
optional offending field (sent as ``BadRequest``) and metadata. The transport
adapters turn it into a gRPC status (``grpc-status-details-bin``) or the
AIP-193 JSON body with the HTTP status that ``google/rpc/code.proto`` gives.

Every reason belongs to one :class:`Category`, sent as ``ErrorInfo.metadata.category``:
the one thing a client branches on (docs/api.md, *Errors*), and the codes follow it: a
rule refusal, and only that, is ``FAILED_PRECONDITION`` and HTTP 422; a malformed
request and a snapshot that does not open are ``INVALID_ARGUMENT`` and 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

import grpc
from google.protobuf import json_format
from google.rpc import code_pb2, error_details_pb2, status_pb2

from engine.errors import BadInput, EngineError, Reason
from service.api import messages

DOMAIN = "canasta-rules"
# What a refusal of load (a full gate, a full connection table) tells a client to wait
# before it retries: the smallest whole Retry-After; engine calls take milliseconds.
RETRY_AFTER_S = 1


class ServiceReason(StrEnum):
    """Reasons the service adds to the engine's. Never rename one."""

    SNAPSHOT_INVALID = "SNAPSHOT_INVALID"
    SNAPSHOT_VERSION_UNSUPPORTED = "SNAPSHOT_VERSION_UNSUPPORTED"
    SNAPSHOT_STALE = "SNAPSHOT_STALE"
    SNAPSHOT_WRONG_GAME = "SNAPSHOT_WRONG_GAME"
    SNAPSHOT_KEY_RETIRED = "SNAPSHOT_KEY_RETIRED"
    CREDENTIAL_REQUIRED = "CREDENTIAL_REQUIRED"
    CREDENTIAL_INVALID = "CREDENTIAL_INVALID"
    CREDENTIAL_KEY_RETIRED = "CREDENTIAL_KEY_RETIRED"
    CREDENTIAL_VERSION_UNSUPPORTED = "CREDENTIAL_VERSION_UNSUPPORTED"
    SEAT_NOT_ALLOWED = "SEAT_NOT_ALLOWED"
    REQUEST_INVALID = "REQUEST_INVALID"
    REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE"
    TOO_MANY_CALLS = "TOO_MANY_CALLS"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    EXPORT_DISABLED = "EXPORT_DISABLED"
    NOT_FOUND = "NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    UNAVAILABLE = "UNAVAILABLE"
    INTERNAL = "INTERNAL"


class Category(StrEnum):
    """What kind of refusal an error is: what a client does about it. Never rename one."""

    RULE = "rule"  # a well-formed move the rules forbid in this position: pick a legal one
    REQUEST = "request"  # the request is malformed, or names cards the seat does not hold
    SNAPSHOT = "snapshot"  # the snapshot does not open, or is not the one expected
    CREDENTIALS = "credentials"  # no credential, a bad one, or one that may not do this
    LIMIT = "limit"  # a size, time or concurrency limit: retry smaller, later or elsewhere
    SERVER = "server"  # the server's side: stopping, a bug


_SERVICE_CATEGORIES: dict[str, Category] = {
    **{r: Category.SNAPSHOT for r in ServiceReason if r.startswith("SNAPSHOT_")},
    **{r: Category.CREDENTIALS for r in ServiceReason if r.startswith("CREDENTIAL_")},
    ServiceReason.SEAT_NOT_ALLOWED: Category.CREDENTIALS,
    ServiceReason.EXPORT_DISABLED: Category.CREDENTIALS,
    ServiceReason.REQUEST_INVALID: Category.REQUEST,
    ServiceReason.UNSUPPORTED_MEDIA_TYPE: Category.REQUEST,
    ServiceReason.NOT_FOUND: Category.REQUEST,
    ServiceReason.METHOD_NOT_ALLOWED: Category.REQUEST,
    ServiceReason.REQUEST_TOO_LARGE: Category.LIMIT,
    ServiceReason.TOO_MANY_CALLS: Category.LIMIT,
    ServiceReason.REQUEST_TIMEOUT: Category.LIMIT,
    ServiceReason.DEADLINE_EXCEEDED: Category.LIMIT,
    ServiceReason.UNAVAILABLE: Category.SERVER,
    ServiceReason.INTERNAL: Category.SERVER,
}
# The engine's malformed-input reasons (raised as BadInput, engine/errors.py).
_BAD_INPUT: frozenset[str] = frozenset({
    Reason.BAD_CARD, Reason.BAD_MOVE_SYNTAX, Reason.BAD_NOTATION, Reason.UNKNOWN_VARIANT,
    Reason.BAD_PLAYER_COUNT, Reason.UNKNOWN_OPTION, Reason.BAD_OPTION_VALUE, Reason.BAD_DECK,
    Reason.BAD_SEAT, Reason.POSITION_OUT_OF_BOUNDS})
# Refusals the engine raises as rule violations that are a client's error whatever the
# rules say: a move naming cards the seat does not hold was never offered to it.
REQUEST_VIOLATIONS: frozenset[Reason] = frozenset({Reason.CARDS_NOT_IN_HAND})


def category_of(reason: str) -> Category:
    """The category of a reason: the service's own by the table above, the engine's
    malformed-input reasons ``request``, every other engine reason ``rule``."""
    if reason in _SERVICE_CATEGORIES:
        return _SERVICE_CATEGORIES[reason]
    if reason in _BAD_INPUT or reason in REQUEST_VIOLATIONS:
        return Category.REQUEST
    return Category.RULE


MAX_ECHO = 500  # characters of an error's message or field name (_bounded)

# HTTP status per gRPC code (google/rpc/code.proto), except FAILED_PRECONDITION: the
# service raises it for rule refusals alone, answered 422 (well-formed, refused by the rules).
HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.OK: 200,
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNKNOWN: 500,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.FAILED_PRECONDITION: 422,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.INTERNAL: 500,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DATA_LOSS: 500,
}


class ServiceError(Exception):
    """A refusal with a code, a stable reason and what a client needs to act on it."""

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        *,
        english: str | None = None,
        field: str = "",
        metadata: Mapping[str, str] | None = None,
        params: Mapping[str, object] | None = None,
        http_status: int | None = None,
        retry_after_s: int = 0,
        localized: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(english or reason)
        self.code = code
        self.reason = reason
        self.english = english
        self.field = _bounded(field)
        self.metadata = dict(metadata or {})
        self.params = dict(params or {})
        self.http_status = http_status or HTTP_STATUS.get(code, 500)
        self.category = category_of(reason)
        # a refusal of load, not of the call: retry it after this many seconds (0: none
        # said); google.rpc.RetryInfo on gRPC, Retry-After on REST
        self.retry_after_s = retry_after_s
        # the whole message by language, where the catalogue's line for the reason is too
        # general to say what is wrong (invalid_detail)
        self.localized = dict(localized or {})

    def message(self, lang: str) -> str:
        if lang in self.localized:
            return _bounded(self.localized[lang])
        return _bounded(messages.text(self.reason, lang, self.params, self.english))

    def __str__(self) -> str:
        return f"{self.code.name} {self.reason}: {self.message('en')}"


def _bounded(text: str) -> str:
    """At most ``MAX_ECHO`` characters of a message or a field name: one may quote the
    caller's text (an unknown variant, a move that does not parse, a JSON key), and an
    answer should not repeat a request's 64 KiB three times over."""
    return text if len(text) <= MAX_ECHO else text[:MAX_ECHO - 1] + "…"


def invalid_request(field: str, detail: str) -> ServiceError:
    """A malformed request: missing, unknown or badly typed field."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, ServiceReason.REQUEST_INVALID,
                        field=field, params={"field": field, "detail": detail})


def invalid_detail(field: str, rule: str, subject: str = "", **params: object
                   ) -> ServiceError:
    """A malformed request on ``field``, in the words of ``messages.REQUEST_DETAILS[rule]``
    in every language; they name ``subject`` when given (a value inside ``field``)."""
    words = {**params, "field": subject or field}
    localized = {lang: messages.request_detail("message", lang, {
        "detail": messages.request_detail(rule, lang, words)}) for lang in messages.LANGUAGES}
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, ServiceReason.REQUEST_INVALID,
                        field=field, localized=localized, params={
                            "field": field, "detail": messages.request_detail(rule, "en", words)})


def too_large(limit: int) -> ServiceError:
    """A request over the size limit (gRPC message or HTTP body)."""
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, ServiceReason.REQUEST_TOO_LARGE,
                        params={"limit": limit}, metadata={"limit": str(limit)}, http_status=413)


def snapshot_invalid() -> ServiceError:
    """Any snapshot that does not open: no detail, so there is no decryption oracle."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, ServiceReason.SNAPSHOT_INVALID,
                        field="snapshot")


def snapshot_key_retired(key_id: str) -> ServiceError:
    """A snapshot whose clear header names a key the ring does not hold (retired, or never
    known: the two look the same). Decided before any decryption, so it is no oracle."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, ServiceReason.SNAPSHOT_KEY_RETIRED,
                        field="snapshot", metadata={"key_id": key_id}, params={"key_id": key_id})


def too_many_calls(limit: int) -> ServiceError:
    """A CanastaEngine call over ``CANASTA_MAX_CONCURRENT_RPCS`` (health is never counted)."""
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, ServiceReason.TOO_MANY_CALLS,
                        params={"limit": limit}, metadata={"limit": str(limit)},
                        retry_after_s=RETRY_AFTER_S)


def unavailable() -> ServiceError:
    """A call that arrived while the server is stopping: it never ran, so retrying it (on
    another replica) is safe, and its retry hint says so to every SDK, which retries only
    on a hint (and to a gRPC retry policy, through the pushback trailer)."""
    return ServiceError(grpc.StatusCode.UNAVAILABLE, ServiceReason.UNAVAILABLE,
                        retry_after_s=RETRY_AFTER_S)


def from_engine(err: EngineError, field: str = "") -> ServiceError:
    """Map an engine error by its category: a malformed request → INVALID_ARGUMENT (400),
    a rule refusal → FAILED_PRECONDITION (HTTP 422: well-formed, refused by the rules)."""
    meta = {"rule": err.rule} if err.rule else {}
    if isinstance(err, BadInput) or err.reason in REQUEST_VIOLATIONS:
        return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, err.reason.value,
                            english=err.message, field=field, metadata=meta)
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, err.reason.value,
                        english=err.message, metadata=meta)


def to_status(err: ServiceError, lang: str, request_id: str = "") -> status_pb2.Status:
    """The ``google.rpc.Status`` of an error, its message in ``lang``."""
    msg = err.message(lang)
    meta = dict(err.metadata)
    meta["category"] = err.category.value
    if request_id:
        meta["request_id"] = request_id
    status = status_pb2.Status(code=err.code.value[0], message=msg)
    status.details.add().Pack(
        error_details_pb2.ErrorInfo(reason=err.reason, domain=DOMAIN, metadata=meta))
    if err.field and err.code is grpc.StatusCode.INVALID_ARGUMENT:
        bad = error_details_pb2.BadRequest()
        bad.field_violations.add(field=err.field, description=err.message("en"))
        status.details.add().Pack(bad)
    status.details.add().Pack(error_details_pb2.LocalizedMessage(locale=lang, message=msg))
    if err.retry_after_s:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromSeconds(err.retry_after_s)
        status.details.add().Pack(retry)
    return status


def to_json(err: ServiceError, lang: str, request_id: str = "") -> dict[str, object]:
    """The AIP-193 JSON body: ``{"error": {"code", "status", "message", "details"}}``."""
    status = json_format.MessageToDict(to_status(err, lang, request_id))
    return {"error": {
        "code": err.http_status,
        "status": code_pb2.Code.Name(err.code.value[0]),
        "message": status.get("message", ""),
        "details": status.get("details", []),
    }}
