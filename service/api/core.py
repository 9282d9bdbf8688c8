"""The servicer core shared by the gRPC server and the REST gateway.

Each RPC is one synchronous method from a request message to a response
message; gRPC calls :meth:`Core.handle` and REST :meth:`Core.handle_json`, the
same method with its answer as JSON, so their semantics cannot drift. LegalMoves,
REST's most frequent call, takes a bare snapshot (:class:`SnapshotRequest`) and
writes its JSON straight from memoized per-move objects (the same bytes, tested).
The engine is called inline, in the thread of the face that took the call (REST's
event loop, one of gRPC's engine threads): every call is short CPU work, and under the
GIL another hop would gain nothing. The core is safe to call from several threads (its
state cache takes a lock, its memos are single dict operations). Errors leave as
:class:`~service.api.errors.ServiceError`.

Every RPC of a game asks :mod:`service.api.access` for the caller's role first and
builds its answer for that role.
"""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message

from engine.bots import LEVELS, suggest_move
from engine.bounds import check_reachable
from engine.errors import BadInput, BadOption, EngineError, Reason
from engine.events import deal_events, play
from engine.expert import clamp_budget
from engine.game import new_game, next_deal
from engine.legal import legal_moves, legal_moves_for
from engine.mayi.state import AnyState
from engine.moves import MOVE_KINDS, Move
from engine.notation import export_position, import_position
from engine.records import begin, parse, write
from engine.state import Phase
from engine.variants import catalogue
from engine.views import private_parts, provisional_score, seat_view
from service.api import convert, jsonfmt
from service.api.access import Access, Role
from service.api.errors import (
    Category,
    ServiceError,
    ServiceReason,
    from_engine,
    invalid_request,
)
from service.api.pb import api, game
from service.ops import metrics
from service.ops.config import AccessMode, ExportPolicy
from service.sealing.snapshot import Header, Sealer, new_game_id

log = logging.getLogger("canasta.core")
_T = TypeVar("_T")

OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
# A game id as every header writes it (Header.game_uuid): expected_game_id is compared in
# this form, and only a value of it is ever echoed
_GAME_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
MAX_PAGE = convert.MOVES_PER_ANSWER  # LegalMoves' largest and default page size

# Which request field an engine input error points at, when it is not obvious.
_FIELDS: dict[str, str] = {
    Reason.UNKNOWN_VARIANT: "variant", Reason.BAD_PLAYER_COUNT: "players",
    Reason.UNKNOWN_OPTION: "options", Reason.BAD_OPTION_VALUE: "options",
    Reason.BAD_DECK: "deck", Reason.BAD_CARD: "move", Reason.BAD_MOVE_SYNTAX: "move",
    Reason.BAD_NOTATION: "position", Reason.BAD_SEAT: "seat",
    Reason.POSITION_OUT_OF_BOUNDS: "position", Reason.CARDS_NOT_IN_HAND: "move",
}
_DECK_FIELDS = {**_FIELDS, Reason.BAD_CARD: "deck"}
# ImportPosition and ExportRecord read everything (variant, players, options, cards, seats,
# moves) out of one text field: whatever is wrong in it is that field's
_POSITION_FIELDS: dict[str, str] = {reason: "position" for reason in Reason}
_RECORD_FIELDS: dict[str, str] = {reason: "record" for reason in Reason}


@dataclass(frozen=True, slots=True)
class Call:
    """Per-call context from the transport: the caller's language, request id, the
    values of its ``authorization`` header or metadata (never logged), and whether the
    caller still waits for the answer (a long call asks, and gives up when it does not)."""

    lang: str = "en"
    request_id: str = ""
    authorization: tuple[str, ...] = ()
    waiting: Callable[[], bool] = lambda: True

    def __repr__(self) -> str:  # keep credentials out of any log or traceback
        return f"Call(lang={self.lang!r}, request_id={self.request_id!r})"


class Abandoned(Exception):
    """A long call given up because its caller no longer waits (its deadline passed, it
    cancelled, its connection closed): nobody is left to answer."""


def _give_up_if_gone(call: Call) -> None:
    if not call.waiting():
        raise Abandoned(call.request_id)


@dataclass(frozen=True, slots=True)
class SnapshotRequest:
    """A request of a snapshot alone, read from REST JSON without a protobuf message
    (``jsonparse.snapshot_only``): under load, building one costs more than the rules.
    LegalMoves reads its paging fields from it, at their defaults."""

    snapshot: bytes
    page_size: int = 0
    page_token: str = ""


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
    # A call whose work grows with a budget or a text the caller sends, not with a
    # position: a bot's search (up to 1.6 s at the expert level) or a record's replay
    # (about 25 µs a move, a 64 KiB record ~150 ms), where every other call takes a few
    # milliseconds. Each face runs it in threads of its own, so it never holds up the
    # short calls or the probes (docs/operations.md, *Threads*).
    long_call: bool = False


class Core:
    """The RPCs over a :class:`Sealer`."""

    def __init__(self, sealer: Sealer, export_policy: ExportPolicy = ExportPolicy.ANY,
                 access: AccessMode = AccessMode.TOKENS) -> None:
        self.sealer = sealer
        self.access = Access(sealer.keys, access, export_policy)
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
                       self.import_position, _POSITION_FIELDS),
                Method("ExportPosition", api.ExportPositionRequest, api.ExportPositionResponse,
                       self.export_position, _FIELDS),
                Method("SuggestMove", api.SuggestMoveRequest, api.SuggestMoveResponse,
                       self.suggest_move, _FIELDS, long_call=True),
                Method("ExportRecord", api.ExportRecordRequest, api.ExportRecordResponse,
                       self.export_record, _RECORD_FIELDS, long_call=True),
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
        except Abandoned:
            raise  # no refusal: nobody is left to tell
        except ServiceError as err:
            metrics.REJECTED.labels(err.reason).inc()
            raise
        except EngineError as err:
            field = method.fields.get(err.reason, "")
            if field == "options" and isinstance(err, BadOption):
                field = f"options.{err.option}"  # the map's entry (AIP-161's path)
            refusal = from_engine(err, field)
            counted = metrics.VIOLATIONS if refusal.category is Category.RULE else metrics.REJECTED
            counted.labels(err.reason.value).inc()
            raise refusal from None
        except Exception:
            log.exception("internal error in %s", name)
            metrics.REJECTED.labels(ServiceReason.INTERNAL).inc()
            raise ServiceError(grpc.StatusCode.INTERNAL, ServiceReason.INTERNAL) from None

    # --- helpers -----------------------------------------------------------------

    def _open(self, blob: bytes, call: Call, expected_seq: int | None = None,
              expected_game: str | None = None) -> tuple[Header, AnyState, Role]:
        """The snapshot's header and state, and the caller's role in its game."""
        if expected_game is not None:
            expected_game = _game_id(expected_game)
        header, state = self.sealer.open(blob)
        role = self.access.role(call.authorization, header)
        if expected_game is not None and expected_game != header.game_uuid:
            raise ServiceError(
                grpc.StatusCode.ABORTED, ServiceReason.SNAPSHOT_WRONG_GAME,
                metadata={"game_id": header.game_uuid, "expected_game_id": expected_game},
                params={"game_id": header.game_uuid, "expected": expected_game})
        if expected_seq is not None and expected_seq != header.seq:
            raise ServiceError(
                grpc.StatusCode.ABORTED, ServiceReason.SNAPSHOT_STALE,
                metadata={"seq": str(header.seq), "expected_seq": str(expected_seq)},
                params={"seq": header.seq, "expected": expected_seq})
        return header, state, role

    def _credentials(self, role: Role, game_id: bytes, players: int, out: Any) -> None:
        """The game's credentials into an answer, for its host only."""
        if self.access.gets_credentials(role):
            host, seats = self.access.credentials(game_id, players)
            out.host_token = host
            out.seat_tokens.extend(seats)

    def _seal(self, state: AnyState, game_id: bytes, seq: int, imported: bool,
              out_header: game.SnapshotHeader, stacked: bool = False) -> bytes:
        blob, header = self.sealer.seal(state, game_id, seq, imported, stacked)
        metrics.SNAPSHOT_BYTES.observe(len(blob))
        metrics.SEALS.labels(header.key_id).inc()
        convert.header_pb(header, out_header)
        return blob

    def _view_seat(self, state: AnyState, role: Role, requested: int | None,
                   field: str = "view_seat") -> int | None:
        """Which views of ``state`` the role asked for and may see (:meth:`Access.views`).
        The role is checked before the seat's range (Google's AIP-211), and a call that
        plays or deals asks before it does, so a refusal never depends on its move.

        :raises ServiceError: a view the role may not see, or a seat the game lacks.
        """
        seat = self.access.views(role, requested)
        if requested is not None and not -1 <= requested < state.rules.players:
            raise from_engine(BadInput(Reason.BAD_SEAT, f"there is no seat {requested}"), field)
        return seat

    def _views(self, state: AnyState, role: Role, requested: int | None, out: Any,
               field: str = "view_seat") -> None:
        """The views of ``state`` the role asked for and may see, into ``out``."""
        self._fill_views(state, self._view_seat(state, role, requested, field), out)

    @staticmethod
    def _fill_views(state: AnyState, seat: int | None, out: Any) -> None:
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
            convert.view_moves_pb(legal, msg)

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
        host = self.access.creator()
        self._views(state, host, self._opt(req, "view_seat"), resp.views)
        game_id = new_game_id()
        # a caller's deck marks the game as stacked, in every later snapshot too
        resp.snapshot = self._seal(state, game_id, 0, False, resp.header, bool(req.deck))
        resp.events.extend(convert.events_pb(deal_events(state),
                                             self.access.events_viewer(host)))
        self._credentials(host, game_id, state.rules.players, resp)
        metrics.DEALS.labels(state.rules.variant).inc()
        return resp

    def _listed(self, state: AnyState, role: Role) -> list[Move]:
        seat = self.access.lister(role)
        return legal_moves(state) if seat is None else legal_moves_for(state, seat)

    def _page(self, req: api.LegalMovesRequest | SnapshotRequest,
              call: Call) -> tuple[AnyState, int, list[Move], str]:
        """The caller's state, the length of its move list, one page of the list and the
        token of the next (AIP-158): at most ``MAX_PAGE`` moves, so a forged position's
        answer stays within the documented worst case (docs/operations.md, *Worst
        cases*) however many moves it has. The token names the game, whose list it is
        (the host's or a seat's), the snapshot's seq, the list's length and the next
        offset: the list is canonical and stable, and a token of another list is refused."""
        header, state, role = self._open(req.snapshot, call)
        moves = self._listed(state, role)
        size = req.page_size
        if size < 0:
            raise invalid_request("page_size", "page_size must not be negative")
        size = MAX_PAGE if size == 0 else min(size, MAX_PAGE)
        start = 0
        if req.page_token:
            start = _page_start(req.page_token, _scope(header, role), len(moves))
        end = start + size
        token = _page_token(_scope(header, role), len(moves), end) if end < len(moves) else ""
        return state, len(moves), moves[start:end], token

    def legal_moves(self, req: api.LegalMovesRequest, call: Call) -> api.LegalMovesResponse:
        state, total, page, token = self._page(req, call)
        resp = api.LegalMovesResponse(seat=state.awaited, phase=state.phase.value,
                                      next_page_token=token, total_size=total)
        convert.moves_pb(page, resp.moves)
        return resp

    def legal_moves_json(self, req: api.LegalMovesRequest | SnapshotRequest,
                         call: Call) -> bytes:
        """LegalMoves as JSON from each move's memoized JSON object, never building a
        message: REST's most frequent call, at under half the cost of the message path.
        The object is LegalMovesResponse as jsonfmt writes it: its fields in order."""
        state, total, page, token = self._page(req, call)
        return jsonfmt.dumps({"seat": state.awaited,
                              "moves": [convert.move_json(m) for m in page],
                              "phase": state.phase.value, "nextPageToken": token,
                              "totalSize": total})

    def apply_move(self, req: api.ApplyMoveRequest, call: Call) -> api.ApplyMoveResponse:
        if not req.HasField("move"):
            raise invalid_request("move", "move is required")
        header, state, role = self._open(req.snapshot, call, self._opt(req, "expected_seq"),
                                         self._opt(req, "expected_game_id"))
        claim = self.access.actor(role, self._opt(req, "seat"))
        view = self._view_seat(state, role, self._opt(req, "view_seat"))
        played = play(state, convert.move_from_pb(req.move), claim)
        nxt, done = played.state, played.move
        resp = api.ApplyMoveResponse(seat=played.seat, awaited=nxt.awaited,
                                     hand_over=nxt.phase in OVER,
                                     game_over=nxt.phase is Phase.GAME_OVER)
        self._fill_views(nxt, view, resp.views)
        resp.snapshot = self._seal(nxt, header.game_id, header.seq + 1, header.imported,
                                   resp.header, header.stacked)
        resp.move.CopyFrom(convert.move_message(done))
        resp.events.extend(convert.events_pb(played.events, self.access.events_viewer(role)))
        variant = nxt.rules.variant
        metrics.MOVES.labels(variant, MOVE_KINDS.get(type(done), type(done).__name__)).inc()
        if nxt.phase in OVER and state.phase not in OVER:
            metrics.HANDS.labels(variant).inc()
        return resp

    def score_hand(self, req: api.ScoreHandRequest, call: Call) -> api.ScoreHandResponse:
        _, state, role = self._open(req.snapshot, call)
        result = state.result
        resp = api.ScoreHandResponse(
            hand_over=state.phase in OVER, game_over=state.phase is Phase.GAME_OVER,
            went_out=result.went_out if result else -1,
            concealed=bool(result and result.concealed),
            winner=result.winner if result else -1, draw=bool(result and result.draw))
        teams = state.rules.layout.teams
        viewer = self.access.score_viewer(role, state.phase in OVER)
        for side in provisional_score(state, viewer):
            convert.side_score_pb(side, teams[side.team], resp.sides.add())
        return resp

    def get_view(self, req: api.GetViewRequest, call: Call) -> api.GetViewResponse:
        _, state, role = self._open(req.snapshot, call)
        resp = api.GetViewResponse()
        self._views(state, role, self._opt(req, "seat"), resp.views, field="seat")
        return resp

    def next_deal(self, req: api.NextDealRequest, call: Call) -> api.NextDealResponse:
        header, state, role = self._open(req.snapshot, call, self._opt(req, "expected_seq"),
                                         self._opt(req, "expected_game_id"))
        self.access.dealer(role, bool(req.deck))
        view = self._view_seat(state, role, self._opt(req, "view_seat"))
        nxt = next_deal(state, list(req.deck) or None)
        resp = api.NextDealResponse()
        self._fill_views(nxt, view, resp.views)
        resp.snapshot = self._seal(nxt, header.game_id, header.seq + 1, header.imported,
                                   resp.header, header.stacked or bool(req.deck))
        resp.events.extend(convert.events_pb(deal_events(nxt), self.access.events_viewer(role)))
        self._credentials(role, header.game_id, nxt.rules.players, resp)
        metrics.DEALS.labels(nxt.rules.variant).inc()
        return resp

    def import_position(self, req: api.ImportPositionRequest,
                        call: Call) -> api.ImportPositionResponse:
        if not req.position.strip():
            raise invalid_request("position", "position is required")
        state = import_position(req.position)
        check_reachable(state)  # what play cannot produce is refused (engine/bounds.py)
        resp = api.ImportPositionResponse()
        host = self.access.creator()
        self._views(state, host, self._opt(req, "view_seat"), resp.views)
        game_id = new_game_id()
        resp.snapshot = self._seal(state, game_id, 0, True, resp.header)
        self._credentials(host, game_id, state.rules.players, resp)
        metrics.DEALS.labels(state.rules.variant).inc()
        return resp

    def export_position(self, req: api.ExportPositionRequest,
                        call: Call) -> api.ExportPositionResponse:
        header, state, role = self._open(req.snapshot, call)
        self.access.exporter(role, header)
        resp = api.ExportPositionResponse(position=export_position(state))
        convert.header_pb(header, resp.header)
        return resp

    def export_record(self, req: api.ExportRecordRequest,
                      call: Call) -> api.ExportRecordResponse:
        """The caller's record of the game (docs/records.md): the host's record, replayed
        (every move and result checked) and refused unless it ends at exactly the
        snapshot's position, written for the role; an empty record starts at the snapshot.
        A mismatch says only that: the caller learns nothing else of the real game."""
        header, state, role = self._open(req.snapshot, call)
        # whose record: a seat's as its views are; the whole one tells the host nothing it
        # did not hold, since the record comes from the caller and must replay to the snapshot
        viewer = self._view_seat(state, role, self._opt(req, "view_seat"))
        if req.record.strip():
            record = parse(req.record)
            if record.position or any(hand.deck is not None for hand in record.hands):
                # a made-up position, or a deal from a made-up deck, would let a player
                # test guesses of the hidden cards: whether the replay reaches the snapshot
                self.access.position_recorder(role)
            # one replay, checked and written; it stops once the caller has gone
            text = write(record, viewer, ends_at=state,
                         interrupt=lambda: _give_up_if_gone(call))
        else:
            # an empty record starts at the snapshot: by its deal when the sealed header says
            # the game was dealt from its seed and nothing has happened yet (public facts),
            # never by dealing again to compare hidden cards
            text = write(begin(state, by_deal=(state.hand_no == 0 and state.ply == 0
                                               and not header.imported
                                               and not header.stacked)), viewer)
        resp = api.ExportRecordResponse(record=text)
        convert.header_pb(header, resp.header)
        return resp

    def suggest_move(self, req: api.SuggestMoveRequest,
                     call: Call) -> api.SuggestMoveResponse:
        level = req.level or "greedy"
        if level not in LEVELS:
            raise invalid_request("level", f"unknown bot level {req.level!r}; known: "
                                  f"{', '.join(LEVELS)}")
        budget = self._opt(req, "budget")
        if budget is not None and budget < 1:
            raise invalid_request("budget", f"the bot budget must be at least 1 playout, "
                                  f"not {budget}")
        _, state, role = self._open(req.snapshot, call)
        seat = self.access.adviser(role, self._opt(req, "seat"))
        # a search takes up to seconds: it stops between rounds once the caller has gone
        move = suggest_move(state, level, req.seed, seat, budget,
                            lambda: _give_up_if_gone(call))
        resp = api.SuggestMoveResponse(seat=state.awaited if seat is None else seat, level=level)
        if level == "expert":
            resp.budget = clamp_budget(budget, state.rules.variant, state.rules.players)
        convert.move_to_pb(move, resp.move)
        metrics.SUGGESTIONS.labels(state.rules.variant, level).inc()
        return resp


def _game_id(given: str) -> str:
    """An expected game id in the form headers write it (case and surrounding spaces
    aside); a value of any other form is refused, and not echoed: it may be of any size.

    :raises ServiceError: INVALID_ARGUMENT on ``expected_game_id``.
    """
    wanted = given.strip().lower()
    if not _GAME_ID.fullmatch(wanted):
        raise invalid_request("expected_game_id", "expected_game_id is not a game id (the "
                              "form of header.game_id: 8-4-4-4-12 hexadecimal digits)")
    return wanted


def _scope(header: Header, role: Role) -> str:
    """The list a page token continues: this game, this caller's list, this seq (made only
    when a list has pages: most have one)."""
    return f"{header.game_id.hex()[:16]}.{'h' if role.is_host else role.seat}.{header.seq}"


def _page_token(scope: str, total: int, offset: int) -> str:
    return base64.urlsafe_b64encode(f"{scope}.{total}.{offset}".encode()).decode().rstrip("=")


def _page_start(token: str, scope: str, total: int) -> int:
    """The offset a page token names, when it was given for this list (same game, same
    caller's list, same seq and length) and points inside it; else INVALID_ARGUMENT on
    ``page_token``."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("ascii")
        offset = int(raw.rpartition(".")[2])
    except (ValueError, UnicodeDecodeError):
        offset = 0
    # only the token as this list writes it: its scope and length are then this list's
    if not 0 < offset < total or _page_token(scope, total, offset) != token:
        raise invalid_request("page_token", "page_token is not one this position's "
                              "LegalMoves answered (a token is valid for its snapshot only)")
    return offset
