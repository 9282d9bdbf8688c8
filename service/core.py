"""The servicer core shared by the gRPC server and the REST gateway.

Each RPC is one synchronous method from a request message to a response
message; gRPC calls :meth:`Core.handle` and REST :meth:`Core.handle_json`, the
same method with its answer as JSON, so their semantics cannot drift. LegalMoves,
REST's most frequent call, takes a bare snapshot (:class:`SnapshotRequest`) and
writes its JSON straight from memoized per-move objects (the same bytes, tested).
The engine is called inline: every call is short CPU work, and under the GIL a
thread pool would only add a hop. Errors leave as
:class:`~service.errors.ServiceError`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message

from engine.bots import LEVELS, suggest_move
from engine.errors import BadInput, EngineError, Reason, RuleViolation
from engine.game import new_game, next_deal
from engine.legal import legal_moves
from engine.mayi.state import AnyState
from engine.moves import MOVE_KINDS, Move
from engine.notation import export_position, import_position
from engine.play import apply, canonicalize
from engine.state import Phase
from engine.variants import catalogue
from engine.views import private_parts, provisional_score, seat_view
from service import convert, jsonfmt, metrics
from service.config import ExportPolicy
from service.errors import ServiceError, ServiceReason, from_engine, invalid_request
from service.pb import api, game
from service.snapshot import Header, Sealer, new_game_id

log = logging.getLogger("canasta.core")
_T = TypeVar("_T")

OVER = (Phase.HAND_OVER, Phase.GAME_OVER)

# Which request field an engine input error points at, when it is not obvious.
_FIELDS: dict[str, str] = {
    Reason.UNKNOWN_VARIANT: "variant", Reason.BAD_PLAYER_COUNT: "players",
    Reason.UNKNOWN_OPTION: "options", Reason.BAD_OPTION_VALUE: "options",
    Reason.BAD_DECK: "deck", Reason.BAD_CARD: "move", Reason.BAD_MOVE_SYNTAX: "move",
    Reason.BAD_NOTATION: "position", Reason.BAD_SEAT: "seat",
}
_DECK_FIELDS = {**_FIELDS, Reason.BAD_CARD: "deck"}


@dataclass(frozen=True, slots=True)
class Call:
    """Per-call context from the transport: the caller's language and request id."""

    lang: str = "en"
    request_id: str = ""


@dataclass(frozen=True, slots=True)
class SnapshotRequest:
    """A request of a snapshot alone, read from REST JSON without a protobuf message
    (``jsonparse.snapshot_only``): under load, building one costs more than the rules."""

    snapshot: bytes


@dataclass(frozen=True, slots=True)
class Method:
    name: str
    request: type[Message]
    response: type[Message]
    run: Callable[[Any, Call], Message]
    fields: dict[str, str]
    # The answer straight as proto3 JSON, where that is much cheaper than the message
    # through jsonfmt; it must give the same bytes (tests/service/test_jsonfmt.py).
    run_json: Callable[[Any, Call], bytes] | None = None


class Core:
    """The RPCs over a :class:`Sealer`."""

    def __init__(self, sealer: Sealer, export_policy: ExportPolicy = ExportPolicy.ANY) -> None:
        self.sealer = sealer
        self.export_policy = export_policy
        self.methods: dict[str, Method] = {
            m.name: m for m in (
                Method("ListVariants", api.ListVariantsRequest, api.ListVariantsResponse,
                       self.list_variants, _FIELDS),
                Method("Deal", api.DealRequest, api.DealResponse, self.deal, _DECK_FIELDS),
                Method("LegalMoves", api.LegalMovesRequest, api.LegalMovesResponse,
                       self.legal_moves, _FIELDS, self.legal_moves_json),
                Method("ApplyMove", api.ApplyMoveRequest, api.ApplyMoveResponse,
                       self.apply_move, _FIELDS),
                Method("ScoreHand", api.ScoreHandRequest, api.ScoreHandResponse,
                       self.score_hand, _FIELDS),
                Method("GetView", api.GetViewRequest, api.GetViewResponse, self.get_view,
                       _FIELDS),
                Method("NextDeal", api.NextDealRequest, api.NextDealResponse, self.next_deal,
                       _DECK_FIELDS),
                Method("ImportPosition", api.ImportPositionRequest, api.ImportPositionResponse,
                       self.import_position, _FIELDS),
                Method("ExportPosition", api.ExportPositionRequest, api.ExportPositionResponse,
                       self.export_position, _FIELDS),
                Method("SuggestMove", api.SuggestMoveRequest, api.SuggestMoveResponse,
                       self.suggest_move, _FIELDS),
            )
        }

    def handle(self, name: str, request: Message, call: Call) -> Message:
        """Run one RPC.

        :raises ServiceError: every refusal, engine errors included.
        """
        method = self.methods[name]
        return self._guarded(method, method.run, request, call)

    def handle_json(self, name: str, request: Message | SnapshotRequest, call: Call) -> bytes:
        """Run one RPC for the REST gateway: the answer as compact proto3 JSON, the
        same bytes as ``jsonfmt.to_json(handle(...))``.

        :raises ServiceError: as :meth:`handle`.
        """
        method = self.methods[name]
        if method.run_json is not None:
            return self._guarded(method, method.run_json, request, call)
        return jsonfmt.to_json(self._guarded(method, method.run, request, call))

    def _guarded(self, method: Method, run: Callable[[Any, Call], _T],
                 request: Message | SnapshotRequest, call: Call) -> _T:
        """``run(request, call)`` with every error turned into a counted ServiceError."""
        name = method.name
        try:
            return run(request, call)
        except ServiceError as err:
            metrics.REJECTED.labels(err.reason).inc()
            raise
        except EngineError as err:
            if isinstance(err, RuleViolation):
                metrics.VIOLATIONS.labels(err.reason.value).inc()
            else:
                metrics.REJECTED.labels(err.reason.value).inc()
            raise from_engine(err, method.fields.get(err.reason, "")) from None
        except Exception:
            log.exception("internal error in %s", name)
            metrics.REJECTED.labels(ServiceReason.INTERNAL).inc()
            raise ServiceError(grpc.StatusCode.INTERNAL, ServiceReason.INTERNAL) from None

    # --- helpers -----------------------------------------------------------------

    def _open(self, blob: bytes, expected_seq: int | None = None) -> tuple[Header, AnyState]:
        header, state = self.sealer.open(blob)
        if expected_seq is not None and expected_seq != header.seq:
            raise ServiceError(
                grpc.StatusCode.ABORTED, ServiceReason.SNAPSHOT_STALE,
                metadata={"seq": str(header.seq), "expected_seq": str(expected_seq)},
                params={"seq": header.seq, "expected": expected_seq})
        return header, state

    def _seal(self, state: AnyState, game_id: bytes, seq: int, imported: bool,
              out_header: game.SnapshotHeader) -> bytes:
        blob, header = self.sealer.seal(state, game_id, seq, imported)
        metrics.SNAPSHOT_BYTES.observe(len(blob))
        metrics.SEALS.labels(header.key_id).inc()
        convert.header_pb(header, out_header)
        return blob

    @staticmethod
    def _views(state: AnyState, seat: int | None, out: Any, field: str = "view_seat") -> None:
        players = state.rules.players
        if seat is not None and not -1 <= seat < players:
            raise from_engine(BadInput(Reason.BAD_SEAT, f"there is no seat {seat}"), field)
        teams = state.rules.layout.teams
        if seat is not None:
            convert.view_pb(seat_view(state, seat), teams, out.add())
            return
        # the views differ only in their private fields: convert the table once, then copy
        table = convert.view_pb(seat_view(state, -1), teams, game.SeatView())
        parts = private_parts(state)
        out.extend([table] * len(parts))
        for msg, (s, hand, legal) in zip(out, parts, strict=True):
            msg.seat = s
            msg.hand.extend(hand)
            msg.legal_moves.extend(legal)

    @staticmethod
    def _opt(msg: Message, field: str) -> Any:
        return getattr(msg, field) if msg.HasField(field) else None

    # --- the RPCs ------------------------------------------------------------------

    def list_variants(self, req: api.ListVariantsRequest, call: Call) -> api.ListVariantsResponse:
        resp = api.ListVariantsResponse()
        for info in catalogue():
            convert.variant_pb(info, call.lang, resp.variants.add())
        return resp

    def deal(self, req: api.DealRequest, call: Call) -> api.DealResponse:
        if not req.variant:
            raise invalid_request("variant", "variant is required")
        if not req.players:
            raise invalid_request("players", "players is required")
        state = new_game(req.variant, req.players, seed=req.seed, options=dict(req.options),
                         deck=list(req.deck) or None)
        resp = api.DealResponse()
        self._views(state, self._opt(req, "view_seat"), resp.views)
        resp.snapshot = self._seal(state, new_game_id(), 0, False, resp.header)
        resp.events.extend(convert.deal_events(state))
        metrics.DEALS.labels(state.rules.variant).inc()
        return resp

    def legal_moves(self, req: api.LegalMovesRequest, call: Call) -> api.LegalMovesResponse:
        _, state = self._open(req.snapshot)
        resp = api.LegalMovesResponse(seat=state.awaited, phase=state.phase.value)
        convert.moves_pb(legal_moves(state), resp.moves)
        return resp

    def legal_moves_json(self, req: api.LegalMovesRequest | SnapshotRequest,
                         call: Call) -> bytes:
        """LegalMoves as JSON from each move's memoized JSON object, never building a
        message: REST's most frequent call, at under half the cost of the message path.
        The object is LegalMovesResponse as jsonfmt writes it: its fields in order."""
        _, state = self._open(req.snapshot)
        return jsonfmt.dumps({"seat": state.awaited,
                              "moves": [convert.move_json(m) for m in legal_moves(state)],
                              "phase": state.phase.value})

    def apply_move(self, req: api.ApplyMoveRequest, call: Call) -> api.ApplyMoveResponse:
        if not req.HasField("move"):
            raise invalid_request("move", "move is required")
        header, state = self._open(req.snapshot, self._opt(req, "expected_seq"))
        move = convert.move_from_pb(req.move)
        mover = state.awaited
        nxt = apply(state, move, self._opt(req, "seat"))
        done: Move = canonicalize(state, move)
        resp = api.ApplyMoveResponse(seat=mover, awaited=nxt.awaited,
                                     hand_over=nxt.phase in OVER,
                                     game_over=nxt.phase is Phase.GAME_OVER)
        self._views(nxt, self._opt(req, "view_seat"), resp.views)
        resp.snapshot = self._seal(nxt, header.game_id, header.seq + 1, header.imported,
                                   resp.header)
        resp.move.CopyFrom(convert.move_message(done))
        resp.events.extend(convert.move_events(state, done, mover, nxt))
        variant = nxt.rules.variant
        metrics.MOVES.labels(variant, MOVE_KINDS.get(type(done), type(done).__name__)).inc()
        if nxt.phase in OVER and state.phase not in OVER:
            metrics.HANDS.labels(variant).inc()
        return resp

    def score_hand(self, req: api.ScoreHandRequest, call: Call) -> api.ScoreHandResponse:
        _, state = self._open(req.snapshot)
        result = state.result
        resp = api.ScoreHandResponse(
            hand_over=state.phase in OVER, game_over=state.phase is Phase.GAME_OVER,
            went_out=result.went_out if result else -1,
            concealed=bool(result and result.concealed),
            winner=result.winner if result else -1, draw=bool(result and result.draw))
        teams = state.rules.layout.teams
        for side in provisional_score(state):
            convert.side_score_pb(side, teams[side.team], resp.sides.add())
        return resp

    def get_view(self, req: api.GetViewRequest, call: Call) -> api.GetViewResponse:
        _, state = self._open(req.snapshot)
        resp = api.GetViewResponse()
        self._views(state, self._opt(req, "seat"), resp.views, field="seat")
        return resp

    def next_deal(self, req: api.NextDealRequest, call: Call) -> api.NextDealResponse:
        header, state = self._open(req.snapshot, self._opt(req, "expected_seq"))
        nxt = next_deal(state, list(req.deck) or None)
        resp = api.NextDealResponse()
        self._views(nxt, self._opt(req, "view_seat"), resp.views)
        resp.snapshot = self._seal(nxt, header.game_id, header.seq + 1, header.imported,
                                   resp.header)
        resp.events.extend(convert.deal_events(nxt))
        metrics.DEALS.labels(nxt.rules.variant).inc()
        return resp

    def import_position(self, req: api.ImportPositionRequest,
                        call: Call) -> api.ImportPositionResponse:
        if not req.position.strip():
            raise invalid_request("position", "position is required")
        state = import_position(req.position)
        resp = api.ImportPositionResponse()
        self._views(state, self._opt(req, "view_seat"), resp.views)
        resp.snapshot = self._seal(state, new_game_id(), 0, True, resp.header)
        return resp

    def export_position(self, req: api.ExportPositionRequest,
                        call: Call) -> api.ExportPositionResponse:
        header, state = self._open(req.snapshot)
        policy = self.export_policy
        if policy is ExportPolicy.OFF or (policy is ExportPolicy.IMPORTED and not header.imported):
            raise ServiceError(grpc.StatusCode.PERMISSION_DENIED, ServiceReason.EXPORT_DISABLED,
                               metadata={"policy": policy.value})
        resp = api.ExportPositionResponse(position=export_position(state))
        convert.header_pb(header, resp.header)
        return resp

    def suggest_move(self, req: api.SuggestMoveRequest,
                     call: Call) -> api.SuggestMoveResponse:
        level = req.level or "greedy"
        if level not in LEVELS:
            raise invalid_request("level", f"unknown bot level {req.level!r}; known: "
                                  f"{', '.join(LEVELS)}")
        _, state = self._open(req.snapshot)
        move = suggest_move(state, level, req.seed)
        resp = api.SuggestMoveResponse(seat=state.awaited, level=level)
        convert.move_to_pb(move, resp.move)
        metrics.SUGGESTIONS.labels(state.rules.variant, level).inc()
        return resp
