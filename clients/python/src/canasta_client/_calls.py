"""The request of each RPC from a client method's arguments, and what the two clients
(:class:`~canasta_client.CanastaClient`, :class:`~canasta_client.AsyncCanastaClient`)
share: the credential and metadata they send, and a call's attempts (each one's timeout,
its request id, when a refused call is sent again)."""

from __future__ import annotations

import math
import operator
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, TypeVar

import grpc
from canasta.v1 import engine_service_pb2 as pb
from canasta.v1 import game_pb2
from google.protobuf.message import Message

from canasta_client.errors import (
    REQUEST_ID_KEY,
    CanastaError,
    echoed_request_id,
    from_rpc_error,
)

MoveLike = game_pb2.Move | str

DEFAULT_TIMEOUT = 10.0
"""Seconds each call may take unless the client or the call says otherwise."""

MAX_RETRY_WAIT = 10.0
"""The longest wait, in seconds, on a server's retry hint before a call is sent again."""

MAX_TIMEOUT = 7 * 24 * 3600.0
"""The longest timeout, in seconds, a call is given (a week, in every SDK): a longer one is
taken as this. No call of the service takes near it, and every SDK's transport can time it
(gRPC failed a timeout of about 9.2e9 s or more at once as DEADLINE_EXCEEDED)."""


def move(text: str) -> game_pb2.Move:
    """A move from its text form (``"draw"``, ``"meld KS KH KD"``, ``"discard 4D"``, ...)."""
    return game_pb2.Move(text=text)


class Settings:
    """What a client sends with every call, and its retries on a refusal of load."""

    def __init__(self, token: str | None, timeout: float, retries: int,
                 metadata: Sequence[tuple[str, str]]) -> None:
        # a whole number (TypeError), as TypeScript's must be: 1.5 failed every call in range(),
        # and True was taken as 1
        if isinstance(retries, bool):
            raise TypeError("retries must be a whole number, not a bool")
        retries = operator.index(retries)
        if retries < 0:
            raise ValueError(f"retries must be 0 or more, not {retries}")
        _check_timeout(timeout)
        self.token = token
        self.timeout = timeout
        self.retries = retries
        # gRPC takes lower-case keys only (as HTTP/2, Go's metadata and Java's Metadata.Key
        # make them); a key written "Accept-Language" failed every call with "Invalid metadata"
        self.metadata = tuple((key.lower(), value) for key, value in metadata)
        self._owned = False

    def _channel(self, kind: ModuleType, target: str, given: Any,
                 credentials: grpc.ChannelCredentials | None,
                 options: Sequence[tuple[str, Any]]) -> Any:
        """``given``, or a channel of ``kind`` (``grpc`` or ``grpc.aio``) to ``target``
        that this client owns and closes."""
        if given is not None:
            return given
        _check_target(target)
        self._owned = True
        return (kind.secure_channel(target, credentials, options=options) if credentials
                else kind.insecure_channel(target, options=options))

    def _metadata(self, token: str | None,
                  request_id: str | None = None) -> tuple[tuple[str, str], ...]:
        """The call's metadata: the client's, with the call's credential (or the client's)
        and the call's request id (over one in the client's ``metadata``): one of each."""
        token = self.token if token is None else token
        metadata = self.metadata
        if token:
            _check_sendable(token, "the token", "!", "visible ASCII")
            metadata = _replaced(metadata, "authorization", f"Bearer {token}")
        if request_id:
            _check_sendable(request_id, "the request id", " ", "printable ASCII")
            metadata = _replaced(metadata, REQUEST_ID_KEY, request_id)
        for key, value in metadata:
            _check_metadata(key, value)
        return metadata

    def _attempts(self, timeout: float | None,
                  on_request_id: RequestIdListener | None) -> Attempts:
        """The attempts of a call that may take ``timeout`` seconds (None: the client's)."""
        if timeout is not None:
            _check_timeout(timeout)
        deadline = time.monotonic() + min(self.timeout if timeout is None else timeout,
                                          MAX_TIMEOUT)
        return Attempts(self.retries, deadline, on_request_id)


RequestIdListener = Callable[[str], None]
"""A call's ``on_request_id``: called with the request id the server echoed."""


class Attempts:
    """One call's attempts: what the blocking and the asyncio client's loops share (each
    keeps its own call and its own wait, ``time.sleep`` or ``await asyncio.sleep``), so
    that the two cannot drift apart: each attempt's timeout, its request id handed to the
    call's listener, and whether a refusal is sent again."""

    def __init__(self, retries: int, deadline: float,
                 on_request_id: RequestIdListener | None) -> None:
        self._retries_left = retries
        self._deadline = deadline
        self._on_request_id = on_request_id

    def timeout(self) -> float:
        """The next attempt's timeout: what is left of the call's (0 once it has passed)."""
        return max(self._deadline - time.monotonic(), 0.0)

    def answered(self, trailers: Iterable[Any] | None) -> None:
        """Hand the answer's request id, when the server echoed one, to the listener."""
        self._heard(echoed_request_id(trailers))

    def refused(self, err: grpc.RpcError) -> CanastaError:
        """The typed error of a failed attempt; its request id goes to the listener."""
        error = from_rpc_error(err)
        self._heard(error.request_id)
        return error

    def retry_wait(self, error: CanastaError) -> float | None:
        """How long to wait before sending ``error``'s call again, or None not to: the
        server said when, a retry is left and the wait ends before the call's deadline."""
        # a negative delay is no hint (as the SDKs read one), even on an error made by hand
        if error.retry_after is None or error.retry_after < 0 or self._retries_left <= 0:
            return None
        wait = min(error.retry_after, MAX_RETRY_WAIT)
        if time.monotonic() + wait >= self._deadline:
            return None
        self._retries_left -= 1
        return wait

    def _heard(self, request_id: str | None) -> None:
        """Hand an attempt's request id, when the server echoed one, to the listener."""
        if self._on_request_id is not None and request_id:
            self._on_request_id(request_id)


def _replaced(metadata: tuple[tuple[str, str], ...], key: str,
              value: str) -> tuple[tuple[str, str], ...]:
    """``metadata`` with ``value`` as its only ``key`` (any spelling of it dropped)."""
    return (*(m for m in metadata if m[0].lower() != key), (key, value))


def _check_sendable(value: str, what: str, lowest: str, allowed: str) -> None:
    """Refuse a header value with a character outside ``lowest`` to ``~`` before anything is
    sent. A token is visible ASCII, as in every SDK: a space (as around a token read from a
    file), a control character such as a newline, or one outside ASCII is refused; gRPC
    would fail a newline as INTERNAL "Invalid metadata" and the server strip spaces. A
    request id may hold spaces; the asyncio client would fail a newline in it with grpc's
    untyped ExecuteBatchError. The value itself is not in the message."""
    for i, ch in enumerate(value):
        if not lowest <= ch <= "~":
            raise CanastaError(grpc.StatusCode.INTERNAL,
                               f"{what} cannot be sent: its character {i + 1} "
                               f"(U+{ord(ch):04X}) is not {allowed}")


def _check_timeout(timeout: float) -> None:
    """Refuse a timeout that is not a number of seconds, as the TypeScript SDK does (Go's and
    Java's durations cannot be one): gRPC failed ``inf`` (taken for "no deadline") and
    ``nan`` at once as DEADLINE_EXCEEDED, as if the server were slow. 0 or less is a
    deadline already past, as in every SDK."""
    if not math.isfinite(timeout):
        raise ValueError(f"timeout must be a finite number of seconds, not {timeout}")


_USERINFO = re.compile(r"^(?!unix:|unix-abstract:)([a-z][a-z0-9+.-]*://)?[^/@]*@", re.I)


def _check_target(target: str) -> None:
    """Refuse a target with a ``user:password@`` before its authority, as every SDK does:
    gRPC has no use for one and quoted the whole target, password and all, in each call's
    UNAVAILABLE error. The message shows it as ``***@``."""
    if _USERINFO.match(target):
        shown = _USERINFO.sub(lambda m: f"{m.group(1) or ''}***@", target)
        raise ValueError(f"the target cannot carry a user or password (send the game's token "
                         f"with token=), not {shown!r}")


def _check_metadata(key: str, value: str | bytes) -> None:
    """Refuse a pair of the client's ``metadata`` that gRPC cannot send, before anything is
    sent, as a call's token and request id are: the blocking client failed it as a bare
    "Invalid metadata", the asyncio one with grpc's untyped ``ExecuteBatchError``. The
    message names the key and the character, never the value (it may be a credential)."""
    if not key:
        raise CanastaError(grpc.StatusCode.INTERNAL, "a metadata key cannot be empty")
    for i, ch in enumerate(key):
        if not (ch.isascii() and (ch.isdigit() or ch.islower() or ch in "-_.")):
            raise CanastaError(grpc.StatusCode.INTERNAL,
                               f"the metadata key {key!r} cannot be sent: its character {i + 1} "
                               f"(U+{ord(ch):04X}) is not a letter, a digit, '-', '_' or '.'")
    if key.endswith("-bin"):  # binary metadata: any bytes (base64 on the wire)
        return
    if not isinstance(value, str):
        raise CanastaError(grpc.StatusCode.INTERNAL,
                           f"the metadata value of {key!r} cannot be sent: only a key ending "
                           "in '-bin' takes bytes")
    _check_sendable(value, f"the metadata value of {key!r}", " ", "printable ASCII")


R = TypeVar("R", bound=Message)


def _with(request: R, **optional: Any) -> R:
    """``request`` with each optional field that is given (not None) set."""
    for name, value in optional.items():
        if value is not None:
            setattr(request, name, value)
    return request


def deal(variant: str, players: int, seed: int | None, options: Mapping[str, str] | None,
         deck: Iterable[str], view_seat: int | None) -> pb.DealRequest:
    """A Deal request; with no ``seed``, a random one (unset on the wire, the seed is 0, and
    every such game would be the same deal, known to anyone)."""
    seed = secrets.randbits(64) if seed is None else seed
    return _with(pb.DealRequest(variant=variant, players=players, options=_texts(options),
                                deck=list(deck), seed=seed), view_seat=view_seat)


def _texts(options: Mapping[str, str] | None) -> dict[str, str]:
    """The rule options, each value text as ListVariants writes it (docs/api.md, *Deal*):
    an int or a bool is refused naming the option and its text, where protobuf's TypeError
    ("bad argument type for built-in operation") named neither."""
    for name, value in (options or {}).items():
        if not isinstance(value, str):
            text = str(value).lower() if isinstance(value, bool) else str(value)
            raise TypeError(f"option {name!r} takes its value as text ({text!r}), "
                            f"not {type(value).__name__} {value!r}")
    return dict(options or {})


def apply_move(snapshot: bytes, move: MoveLike, expected_seq: int | None, seat: int | None,
               view_seat: int | None, expected_game_id: str | None) -> pb.ApplyMoveRequest:
    request = pb.ApplyMoveRequest(
        snapshot=snapshot, move=game_pb2.Move(text=move) if isinstance(move, str) else move)
    return _with(request, expected_seq=expected_seq, seat=seat, view_seat=view_seat,
                 expected_game_id=expected_game_id)


def next_deal(snapshot: bytes, deck: Iterable[str], expected_seq: int | None,
              view_seat: int | None, expected_game_id: str | None) -> pb.NextDealRequest:
    return _with(pb.NextDealRequest(snapshot=snapshot, deck=list(deck)),
                 expected_seq=expected_seq, view_seat=view_seat,
                 expected_game_id=expected_game_id)


def view(snapshot: bytes, seat: int | None) -> pb.GetViewRequest:
    return _with(pb.GetViewRequest(snapshot=snapshot), seat=seat)


def import_position(position: str, view_seat: int | None) -> pb.ImportPositionRequest:
    return _with(pb.ImportPositionRequest(position=position), view_seat=view_seat)


def export_record(snapshot: bytes, record: str,
                  view_seat: int | None) -> pb.ExportRecordRequest:
    return _with(pb.ExportRecordRequest(snapshot=snapshot, record=record), view_seat=view_seat)


def suggest_move(snapshot: bytes, level: str, seed: int, seat: int | None,
                 budget: int | None) -> pb.SuggestMoveRequest:
    return _with(pb.SuggestMoveRequest(snapshot=snapshot, level=level, seed=seed), seat=seat,
                 budget=budget)
