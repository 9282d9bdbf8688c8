"""The synchronous gRPC client of the ``canasta.v1`` rules service."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import grpc
from canasta.v1 import engine_service_pb2 as pb
from canasta.v1 import engine_service_pb2_grpc as pb_grpc
from canasta.v1 import game_pb2

from canasta_client import _calls as req
from canasta_client._calls import (
    DEFAULT_TIMEOUT,
    MoveLike,
    RequestIdListener,
    Settings,
)

T = TypeVar("T")


class CanastaClient(Settings):
    """A client of one server. Every method takes ``timeout`` (seconds) and raises
    :class:`~canasta_client.CanastaError` (or a subclass) with the server's reason code.

    A game's credentials come with its deal (``host_token``, ``seat_tokens``): the
    client sends its ``token`` with every call, and a call's own ``token=`` wins over
    it (``token=""``: none, a spectator's call).

    With ``retries=N`` a call that the server refused for load and said when to send
    again (``retry_after``, as on ``TOO_MANY_CALLS``) is sent again after that delay
    (at most :data:`~canasta_client.MAX_RETRY_WAIT`), up to N times. Every RPC is pure,
    so sending one again is safe. The call's timeout covers its retries: a wait that
    would pass it is not made, and the refusal is raised. The default, 0, raises it at
    once. :class:`~canasta_client.AsyncCanastaClient` is the same client for asyncio.

    The server echoes each call's request id (``x-request-id``; one it makes up when none
    was sent) and writes it in its log lines of the call. Every method takes
    ``request_id=``, sent as the call's (over one in the client's ``metadata``), and
    ``on_request_id=``, called with the id the server echoed whether it answered or
    refused (once per attempt with retries; not when no answer came); a failure's is also
    :attr:`CanastaError.request_id <canasta_client.CanastaError.request_id>`.

    >>> client = CanastaClient("127.0.0.1:50051")  # doctest: +SKIP
    >>> seat_2 = client.with_token(deal.seat_tokens[2])  # doctest: +SKIP
    """

    def __init__(self, target: str = "127.0.0.1:50051", *, token: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retries: int = 0,
                 channel: grpc.Channel | None = None,
                 credentials: grpc.ChannelCredentials | None = None,
                 metadata: Sequence[tuple[str, str]] = (),
                 options: Sequence[tuple[str, Any]] = ()) -> None:
        """Connect to ``target`` (``host:port``), or use ``channel`` as given.

        ``token`` is the credential sent with every call (``authorization: Bearer``);
        ``credentials`` makes a TLS channel; ``metadata`` is sent with every call
        (for example ``("accept-language", "ru")``).
        """
        super().__init__(token, timeout, retries, metadata)
        self.channel: grpc.Channel = self._channel(grpc, target, channel, credentials, options)
        self.stub: pb_grpc.CanastaEngineStub = pb_grpc.CanastaEngineStub(self.channel)

    def with_token(self, token: str | None) -> CanastaClient:
        """A client sending ``token`` with every call, sharing this one's channel (and
        its lifetime: closing the copy leaves the channel open)."""
        return CanastaClient(token=token, timeout=self.timeout, retries=self.retries,
                             channel=self.channel, metadata=self.metadata)

    def close(self) -> None:
        """Close the channel (if this client made it)."""
        if self._owned:
            self.channel.close()

    def __enter__(self) -> CanastaClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: grpc.UnaryUnaryMultiCallable[Any, T], request: Any,
              timeout: float | None, token: str | None = None, *, request_id: str | None,
              on_request_id: RequestIdListener | None) -> T:
        metadata = self._metadata(token, request_id)
        attempts = self._attempts(timeout, on_request_id)
        while True:
            try:
                answer, call = method.with_call(request, timeout=attempts.timeout(),
                                                metadata=metadata)
            except grpc.RpcError as err:
                error = attempts.refused(err)
            else:
                attempts.answered(call.trailing_metadata())
                return answer
            wait = attempts.retry_wait(error)
            if wait is None:
                raise error from None
            time.sleep(wait)

    # ---- the RPCs ----------------------------------------------------------------------

    def list_variants(self, *, request_id: str | None = None,
                      on_request_id: RequestIdListener | None = None,
                      timeout: float | None = None) -> pb.ListVariantsResponse:
        """The games this server plays, with their rule options."""
        return self._call(self.stub.ListVariants, pb.ListVariantsRequest(), timeout,
                          request_id=request_id, on_request_id=on_request_id)

    def deal(self, variant: str = "classic", players: int = 4, *, seed: int | None = None,
             options: Mapping[str, str] | None = None, deck: Iterable[str] = (),
             view_seat: int | None = None, request_id: str | None = None,
             on_request_id: RequestIdListener | None = None,
             timeout: float | None = None) -> pb.DealResponse:
        """Deal the first hand of a new game. ``seed`` decides the shuffle and every later
        hand; without one the client picks a random 64-bit seed (``secrets``)."""
        return self._call(self.stub.Deal,
                          req.deal(variant, players, seed, options, deck, view_seat), timeout,
                          request_id=request_id, on_request_id=on_request_id)

    def legal_moves(self, snapshot: bytes, *, page_size: int = 0, page_token: str = "",
                    token: str | None = None,
                    request_id: str | None = None,
                    on_request_id: RequestIdListener | None = None,
                    timeout: float | None = None) -> pb.LegalMovesResponse:
        """The legal moves of the seat whose move is due (the host's credential), or of the
        credential's seat when it may act, canonical, in a stable order: one page of at
        most ``page_size`` (0: the server's maximum, 1,000); pass the answer's
        ``next_page_token`` as ``page_token`` for the next (see :meth:`all_legal_moves`)."""
        request = pb.LegalMovesRequest(snapshot=snapshot, page_size=page_size,
                                       page_token=page_token)
        return self._call(self.stub.LegalMoves, request, timeout, token,
                          request_id=request_id, on_request_id=on_request_id)

    def all_legal_moves(self, snapshot: bytes, *, token: str | None = None,
                        request_id: str | None = None,
                        on_request_id: RequestIdListener | None = None,
                        timeout: float | None = None) -> list[game_pb2.Move]:
        """Every legal move of :meth:`legal_moves`, its pages followed to the end."""
        moves: list[game_pb2.Move] = []
        page_token = ""
        while True:
            page = self.legal_moves(snapshot, page_token=page_token, token=token,
                                    request_id=request_id, on_request_id=on_request_id,
                                    timeout=timeout)
            moves.extend(page.moves)
            page_token = page.next_page_token
            if not page_token:
                return moves

    def apply_move(self, snapshot: bytes, move: MoveLike, *, expected_seq: int | None = None,
                   seat: int | None = None, view_seat: int | None = None,
                   expected_game_id: str | None = None, token: str | None = None,
                   request_id: str | None = None,
                   on_request_id: RequestIdListener | None = None,
                   timeout: float | None = None) -> pb.ApplyMoveResponse:
        """Apply one move (a :class:`Move`, such as one ``legal_moves`` listed, or its text):
        the host's credential moves for any seat, a seat's for that seat only."""
        request = req.apply_move(snapshot, move, expected_seq, seat, view_seat, expected_game_id)
        return self._call(self.stub.ApplyMove, request, timeout, token,
                          request_id=request_id, on_request_id=on_request_id)

    def play(self, snapshot: bytes, text: str, **kwargs: Any) -> pb.ApplyMoveResponse:
        """Play a move given in its text form, such as ``"discard 4D"`` (see :meth:`apply_move`)."""
        return self.apply_move(snapshot, text, **kwargs)

    def score_hand(self, snapshot: bytes, *, token: str | None = None,
                   request_id: str | None = None,
                   on_request_id: RequestIdListener | None = None,
                   timeout: float | None = None) -> pb.ScoreHandResponse:
        """The hand's score (provisional while the hand is played)."""
        return self._call(self.stub.ScoreHand, pb.ScoreHandRequest(snapshot=snapshot), timeout,
                          token, request_id=request_id, on_request_id=on_request_id)

    def next_deal(self, snapshot: bytes, *, deck: Iterable[str] = (),
                  expected_seq: int | None = None, view_seat: int | None = None,
                  expected_game_id: str | None = None, token: str | None = None,
                  request_id: str | None = None,
                  on_request_id: RequestIdListener | None = None,
                  timeout: float | None = None) -> pb.NextDealResponse:
        """Deal the next hand once a hand is over (the host's answer carries the tokens)."""
        request = req.next_deal(snapshot, deck, expected_seq, view_seat, expected_game_id)
        return self._call(self.stub.NextDeal, request, timeout, token,
                          request_id=request_id, on_request_id=on_request_id)

    def view(self, snapshot: bytes, seat: int | None = None, *, token: str | None = None,
             request_id: str | None = None,
             on_request_id: RequestIdListener | None = None,
             timeout: float | None = None) -> pb.GetViewResponse:
        """Seat views of a snapshot (``seat`` only: that seat's; ``-1``: the spectator's).
        Unset: every seat's for the host, the credential's own seat's, or the public one."""
        return self._call(self.stub.GetView, req.view(snapshot, seat), timeout, token,
                          request_id=request_id, on_request_id=on_request_id)

    def import_position(self, position: str, *, view_seat: int | None = None,
                        request_id: str | None = None,
                        on_request_id: RequestIdListener | None = None,
                        timeout: float | None = None) -> pb.ImportPositionResponse:
        """Start a game from a position in the text notation (answers its tokens)."""
        return self._call(self.stub.ImportPosition, req.import_position(position, view_seat),
                          timeout, request_id=request_id, on_request_id=on_request_id)

    def export_position(self, snapshot: bytes, *, token: str | None = None,
                        request_id: str | None = None,
                        on_request_id: RequestIdListener | None = None,
                        timeout: float | None = None) -> pb.ExportPositionResponse:
        """The whole position of a snapshot as text (reveals every hand; the host only)."""
        return self._call(self.stub.ExportPosition, pb.ExportPositionRequest(snapshot=snapshot),
                          timeout, token, request_id=request_id, on_request_id=on_request_id)

    def export_record(self, snapshot: bytes, record: str = "", *, view_seat: int | None = None,
                      token: str | None = None,
                      request_id: str | None = None,
                      on_request_id: RequestIdListener | None = None,
                      timeout: float | None = None) -> pb.ExportRecordResponse:
        """The game record (docs/records.md) of the moves the host kept, checked against the
        snapshot: the whole record for the host (``view_seat``: a seat's, -1 the public
        one), a seat's own for its token, the public one for a spectator. An empty
        ``record`` starts one at the snapshot."""
        return self._call(self.stub.ExportRecord, req.export_record(snapshot, record, view_seat),
                          timeout, token, request_id=request_id, on_request_id=on_request_id)

    def suggest_move(self, snapshot: bytes, level: str = "greedy", seed: int = 0, *,
                     seat: int | None = None, budget: int | None = None,
                     token: str | None = None,
                     request_id: str | None = None,
                     on_request_id: RequestIdListener | None = None,
                     timeout: float | None = None) -> pb.SuggestMoveResponse:
        """A bot's legal move (``random``, ``greedy`` or ``expert``) for the seat whose move
        is due, or ``seat`` (the credential's own seat for a seat token); ``budget``: the
        expert's playouts (the server's default when unset, clamped to its maximum). The
        same snapshot, level, seed and budget give the same move. Apply it with
        :meth:`apply_move`."""
        return self._call(self.stub.SuggestMove,
                          req.suggest_move(snapshot, level, seed, seat, budget), timeout, token,
                          request_id=request_id, on_request_id=on_request_id)
