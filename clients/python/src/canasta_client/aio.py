"""The asyncio gRPC client of the ``canasta.v1`` rules service: :class:`CanastaClient`'s
methods as coroutines, over a ``grpc.aio`` channel, for hosts and bots that run in an
event loop (no thread per call)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import grpc
import grpc.aio
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


class AsyncCanastaClient(Settings):
    """:class:`~canasta_client.CanastaClient` for asyncio: the same methods, arguments,
    credentials, request ids, retries and typed errors, each a coroutine. Make it on the
    event loop that uses it (in a coroutine, or an app's startup): a ``grpc.aio`` channel
    works only on the loop it was made on.

    >>> async with AsyncCanastaClient("127.0.0.1:50051") as client:  # doctest: +SKIP
    ...     deal = await client.deal("classic", 4, seed=7)
    """

    def __init__(self, target: str = "127.0.0.1:50051", *, token: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retries: int = 0,
                 channel: grpc.aio.Channel | None = None,
                 credentials: grpc.ChannelCredentials | None = None,
                 metadata: Sequence[tuple[str, str]] = (),
                 options: Sequence[tuple[str, Any]] = ()) -> None:
        """Connect to ``target`` (``host:port``), or use ``channel`` (a ``grpc.aio``
        channel) as given; the arguments are :class:`~canasta_client.CanastaClient`'s."""
        super().__init__(token, timeout, retries, metadata)
        self.channel: grpc.aio.Channel = self._channel(grpc.aio, target, channel, credentials,
                                                       options)
        self.stub: pb_grpc.CanastaEngineAsyncStub = pb_grpc.CanastaEngineStub(self.channel)

    def with_token(self, token: str | None) -> AsyncCanastaClient:
        """A client sending ``token`` with every call, sharing this one's channel (and
        its lifetime: closing the copy leaves the channel open)."""
        return AsyncCanastaClient(token=token, timeout=self.timeout, retries=self.retries,
                                  channel=self.channel, metadata=self.metadata)

    async def close(self) -> None:
        """Close the channel (if this client made it)."""
        if self._owned:
            await self.channel.close()

    async def __aenter__(self) -> AsyncCanastaClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, method: grpc.aio.UnaryUnaryMultiCallable[Any, T], request: Any,
                    timeout: float | None, token: str | None = None, *,
                    request_id: str | None, on_request_id: RequestIdListener | None) -> T:
        metadata = self._metadata(token, request_id)
        attempts = self._attempts(timeout, on_request_id)
        while True:
            try:
                call = method(request, timeout=attempts.timeout(), metadata=metadata)
                answer = await call
            except grpc.RpcError as err:
                error = attempts.refused(err)
            else:
                attempts.answered(await call.trailing_metadata())
                return answer
            wait = attempts.retry_wait(error)
            if wait is None:
                raise error from None
            await asyncio.sleep(wait)

    # ---- the RPCs ----------------------------------------------------------------------

    async def list_variants(self, *, request_id: str | None = None,
                            on_request_id: RequestIdListener | None = None,
                            timeout: float | None = None) -> pb.ListVariantsResponse:
        """As :meth:`CanastaClient.list_variants`."""
        return await self._call(self.stub.ListVariants, pb.ListVariantsRequest(), timeout,
                                request_id=request_id, on_request_id=on_request_id)

    async def deal(self, variant: str = "classic", players: int = 4, *, seed: int | None = None,
                   options: Mapping[str, str] | None = None, deck: Iterable[str] = (),
                   view_seat: int | None = None, request_id: str | None = None,
                   on_request_id: RequestIdListener | None = None,
                   timeout: float | None = None) -> pb.DealResponse:
        """As :meth:`CanastaClient.deal`."""
        request = req.deal(variant, players, seed, options, deck, view_seat)
        return await self._call(self.stub.Deal, request, timeout,
                                request_id=request_id, on_request_id=on_request_id)

    async def legal_moves(self, snapshot: bytes, *, page_size: int = 0, page_token: str = "",
                          token: str | None = None,
                          request_id: str | None = None,
                          on_request_id: RequestIdListener | None = None,
                          timeout: float | None = None) -> pb.LegalMovesResponse:
        """As :meth:`CanastaClient.legal_moves`."""
        request = pb.LegalMovesRequest(snapshot=snapshot, page_size=page_size,
                                       page_token=page_token)
        return await self._call(self.stub.LegalMoves, request, timeout, token,
                                request_id=request_id, on_request_id=on_request_id)

    async def all_legal_moves(self, snapshot: bytes, *, token: str | None = None,
                              request_id: str | None = None,
                              on_request_id: RequestIdListener | None = None,
                              timeout: float | None = None) -> list[game_pb2.Move]:
        """As :meth:`CanastaClient.all_legal_moves`."""
        moves: list[game_pb2.Move] = []
        page_token = ""
        while True:
            page = await self.legal_moves(snapshot, page_token=page_token, token=token,
                                          request_id=request_id, on_request_id=on_request_id,
                                          timeout=timeout)
            moves.extend(page.moves)
            page_token = page.next_page_token
            if not page_token:
                return moves

    async def apply_move(self, snapshot: bytes, move: MoveLike, *,
                         expected_seq: int | None = None,
                         seat: int | None = None, view_seat: int | None = None,
                         expected_game_id: str | None = None, token: str | None = None,
                         request_id: str | None = None,
                         on_request_id: RequestIdListener | None = None,
                         timeout: float | None = None) -> pb.ApplyMoveResponse:
        """As :meth:`CanastaClient.apply_move`."""
        request = req.apply_move(snapshot, move, expected_seq, seat, view_seat, expected_game_id)
        return await self._call(self.stub.ApplyMove, request, timeout, token,
                                request_id=request_id, on_request_id=on_request_id)

    async def play(self, snapshot: bytes, text: str, **kwargs: Any) -> pb.ApplyMoveResponse:
        """As :meth:`CanastaClient.play`."""
        return await self.apply_move(snapshot, text, **kwargs)

    async def score_hand(self, snapshot: bytes, *, token: str | None = None,
                         request_id: str | None = None,
                         on_request_id: RequestIdListener | None = None,
                         timeout: float | None = None) -> pb.ScoreHandResponse:
        """As :meth:`CanastaClient.score_hand`."""
        request = pb.ScoreHandRequest(snapshot=snapshot)
        return await self._call(self.stub.ScoreHand, request, timeout, token,
                                request_id=request_id, on_request_id=on_request_id)

    async def next_deal(self, snapshot: bytes, *, deck: Iterable[str] = (),
                        expected_seq: int | None = None, view_seat: int | None = None,
                        expected_game_id: str | None = None, token: str | None = None,
                        request_id: str | None = None,
                        on_request_id: RequestIdListener | None = None,
                        timeout: float | None = None) -> pb.NextDealResponse:
        """As :meth:`CanastaClient.next_deal`."""
        request = req.next_deal(snapshot, deck, expected_seq, view_seat, expected_game_id)
        return await self._call(self.stub.NextDeal, request, timeout, token,
                                request_id=request_id, on_request_id=on_request_id)

    async def view(self, snapshot: bytes, seat: int | None = None, *, token: str | None = None,
                   request_id: str | None = None,
                   on_request_id: RequestIdListener | None = None,
                   timeout: float | None = None) -> pb.GetViewResponse:
        """As :meth:`CanastaClient.view`."""
        return await self._call(self.stub.GetView, req.view(snapshot, seat), timeout, token,
                                request_id=request_id, on_request_id=on_request_id)

    async def import_position(self, position: str, *, view_seat: int | None = None,
                              request_id: str | None = None,
                              on_request_id: RequestIdListener | None = None,
                              timeout: float | None = None) -> pb.ImportPositionResponse:
        """As :meth:`CanastaClient.import_position`."""
        request = req.import_position(position, view_seat)
        return await self._call(self.stub.ImportPosition, request, timeout,
                                request_id=request_id, on_request_id=on_request_id)

    async def export_position(self, snapshot: bytes, *, token: str | None = None,
                              request_id: str | None = None,
                              on_request_id: RequestIdListener | None = None,
                              timeout: float | None = None) -> pb.ExportPositionResponse:
        """As :meth:`CanastaClient.export_position`."""
        request = pb.ExportPositionRequest(snapshot=snapshot)
        return await self._call(self.stub.ExportPosition, request, timeout, token,
                                request_id=request_id, on_request_id=on_request_id)

    async def export_record(self, snapshot: bytes, record: str = "", *,
                            view_seat: int | None = None, token: str | None = None,
                            request_id: str | None = None,
                            on_request_id: RequestIdListener | None = None,
                            timeout: float | None = None) -> pb.ExportRecordResponse:
        """As :meth:`CanastaClient.export_record`."""
        request = req.export_record(snapshot, record, view_seat)
        return await self._call(self.stub.ExportRecord, request, timeout, token,
                                request_id=request_id, on_request_id=on_request_id)

    async def suggest_move(self, snapshot: bytes, level: str = "greedy", seed: int = 0, *,
                           seat: int | None = None, budget: int | None = None,
                           token: str | None = None,
                           request_id: str | None = None,
                           on_request_id: RequestIdListener | None = None,
                           timeout: float | None = None) -> pb.SuggestMoveResponse:
        """As :meth:`CanastaClient.suggest_move`."""
        request = req.suggest_move(snapshot, level, seed, seat, budget)
        return await self._call(self.stub.SuggestMove, request, timeout, token,
                                request_id=request_id, on_request_id=on_request_id)
