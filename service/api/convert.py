"""Engine values ↔ ``canasta.v1`` messages. No rules here: only shapes.

Moves map one-to-one onto the ``Move.kind`` oneof: every move kind of every
variant (labelled melds of Samba and Bolivia, ``merge``, the May I? moves) has
its arm. A move kind the engine gains before the contract types it would travel
as ``text`` alone, so a new variant still works without a service change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from engine.cards import CODES, RANK_CHARS, Card, parse_card, rank_of_char
from engine.mayi.moves import Buy, GoDown, LayOff, PassBuy, canonical_groups
from engine.mayi.state import AnyState, MayIState
from engine.melds import parse_label
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Group,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
    canonical_group,
    parse_move,
)
from engine.options import OptionSpec
from engine.state import SEQ_RANK, WILD_RANK, Phase, SideResult
from engine.variants import VariantInfo
from engine.views import MeldView, SeatView, SideView
from service.api import jsonfmt
from service.api.errors import invalid_request
from service.api.pb import game
from service.sealing.snapshot import Header

# --- moves ---------------------------------------------------------------------


def _cards(codes: Iterable[int]) -> list[str]:
    return [CODES[c] for c in codes]


def move_to_pb(move: Move, out: game.Move | None = None) -> game.Move:
    """The typed message of a move, with its canonical text."""
    m = game.Move() if out is None else out
    m.text = str(move)
    if isinstance(move, Draw):
        m.draw.SetInParent()
    elif isinstance(move, TakePile):
        m.take_pile.SetInParent()
        m.take_pile.cards.extend(_cards(move.cards))
        for g in move.extras:
            m.take_pile.extras.add().cards.extend(_cards(g))
        m.take_pile.target = move.target
    elif isinstance(move, Meld):
        m.meld.SetInParent()
        for g in move.groups:
            m.meld.groups.add().cards.extend(_cards(g))
    elif isinstance(move, AddToMeld):
        _add_to_meld_pb(move, m.add_to_meld)
    elif isinstance(move, Merge):
        m.merge.first = move.first
        m.merge.second = move.second
    elif isinstance(move, Discard):
        m.discard.card = CODES[move.card]
    elif isinstance(move, GoOut):
        m.go_out.SetInParent()
        if move.card is not None:
            m.go_out.card = CODES[move.card]
    elif isinstance(move, Ask):
        m.ask.SetInParent()
    elif isinstance(move, Answer):
        m.answer.yes = move.yes
    elif isinstance(move, Undo):
        m.undo.SetInParent()
    elif isinstance(move, Decline):
        m.decline.SetInParent()
    elif isinstance(move, EndHand):
        m.end_hand.SetInParent()
    elif isinstance(move, Buy):
        m.buy.SetInParent()
    elif isinstance(move, PassBuy):
        m.pass_buy.SetInParent()
    elif isinstance(move, GoDown):
        m.go_down.SetInParent()
        for g in move.groups:
            m.go_down.groups.add().cards.extend(_cards(g))
    elif isinstance(move, LayOff):
        m.lay_off.seat = move.seat
        m.lay_off.meld = move.meld
        m.lay_off.card = CODES[move.card]
    return m


def moves_pb(moves: Iterable[Move], out: Any) -> None:
    """Append the typed messages of ``moves`` to the repeated field ``out`` (copies of
    memoized messages, which nobody changes)."""
    out.extend([move_message(m) for m in moves])


@lru_cache(maxsize=8192)
def move_message(move: Move) -> game.Move:
    """The shared, memoized message of a move: copy it, never change it. A move list is
    mostly moves seen before (`draw`, `discard 4D`)."""
    return move_to_pb(move)


@lru_cache(maxsize=8192)
def move_json(move: Move) -> dict[str, Any]:
    """The proto3 JSON object of :func:`move_message`, memoized the same way: shared,
    never change it."""
    return jsonfmt.to_dict(move_message(move))


def _add_to_meld_pb(move: AddToMeld, out: game.Move.AddToMeld) -> None:
    """A labelled addition carries its label, and the rank character only for a group."""
    group = 0 <= move.rank < WILD_RANK
    if not move.label and not group:  # engine.play.canonicalize labels these; no text either
        raise ValueError(f"{move!r} names a wild meld or sequence without its label")
    out.label = move.label
    if group:
        out.rank = RANK_CHARS[move.rank]
    out.cards.extend(_cards(move.cards))


def _card_list(codes: Sequence[str], field: str) -> tuple[Card, ...]:
    if not codes:
        raise invalid_request(field, f"{field} needs at least one card")
    return tuple(parse_card(c) for c in codes)


def _group(codes: Sequence[str], field: str) -> Group:
    return canonical_group(_card_list(codes, field))


def _label(text: str, field: str) -> tuple[int, str]:
    """Rank code and normalised label (``k#1`` -> ``K``) of a meld label."""
    if not text.strip():
        raise invalid_request(field, f"{field} needs a meld label")
    return parse_label(text)


def _add_to_meld(a: game.Move.AddToMeld) -> AddToMeld:
    """The addition as ``parse_move`` reads ``add LABEL cards``."""
    cards = _card_list(a.cards, "move.add_to_meld.cards")
    if not a.label.strip():
        return AddToMeld(rank_of_char(a.rank), canonical_group(cards))
    rank, label = _label(a.label, "move.add_to_meld.label")
    if a.rank.strip() and not (rank < WILD_RANK and rank_of_char(a.rank) == rank):
        raise invalid_request("move.add_to_meld.rank",
                              f"rank {a.rank!r} is not the rank of meld {label}")
    if len(label) == 1 and rank < WILD_RANK:  # "K" (or "K#1") is the side's first K group
        return AddToMeld(rank, canonical_group(cards))
    return AddToMeld(rank, tuple(sorted(cards)) if rank >= SEQ_RANK else canonical_group(cards),
                     label)


def _go_down(d: game.Move.GoDown) -> GoDown:
    if not d.groups:
        raise invalid_request("move.go_down.groups", "going down needs the contract's melds")
    return GoDown(canonical_groups(_card_list(g.cards, "move.go_down.groups")
                                   for g in d.groups))


def _lay_off(lo: game.Move.LayOff) -> LayOff:
    for name, value in (("seat", lo.seat), ("meld", lo.meld)):
        if value < 0:
            raise invalid_request(f"move.lay_off.{name}", f"{name} {value} is negative")
    return LayOff(lo.seat, lo.meld, parse_card(lo.card))


def _typed(m: game.Move) -> Move | None:
    kind = m.WhichOneof("kind")
    if kind is None:
        return None
    if kind == "draw":
        return Draw()
    if kind == "take_pile":
        t = m.take_pile
        cards = canonical_group(tuple(parse_card(c) for c in t.cards))
        extras = tuple(_group(g.cards, "move.take_pile.extras") for g in t.extras)
        target = _label(t.target, "move.take_pile.target")[1] if t.target.strip() else ""
        return TakePile(cards, extras, target)
    if kind == "meld":
        if not m.meld.groups:
            raise invalid_request("move.meld.groups", "a meld needs at least one group")
        return Meld(tuple(_group(g.cards, "move.meld.groups") for g in m.meld.groups))
    if kind == "add_to_meld":
        return _add_to_meld(m.add_to_meld)
    if kind == "merge":
        return Merge(_label(m.merge.first, "move.merge.first")[1],
                     _label(m.merge.second, "move.merge.second")[1])
    if kind == "discard":
        return Discard(parse_card(m.discard.card))
    if kind == "go_out":
        return GoOut(parse_card(m.go_out.card) if m.go_out.HasField("card") else None)
    if kind == "answer":
        return Answer(m.answer.yes)
    if kind == "go_down":
        return _go_down(m.go_down)
    if kind == "lay_off":
        return _lay_off(m.lay_off)
    bare: dict[str, Move] = {"ask": Ask(), "undo": Undo(), "decline": Decline(),
                             "end_hand": EndHand(), "buy": Buy(), "pass_buy": PassBuy()}
    return bare[kind]


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> Move:
    """``parse_move``, memoized: hosts echo listed moves, typed and as text."""
    return parse_move(text)


def move_from_pb(m: game.Move) -> Move:
    """The engine move of a request (typed, text, or both when they agree).

    :raises ServiceError: ``REQUEST_INVALID`` when the move is missing, a typed
        field is missing or contradicts another, or the typed and text forms
        disagree.
    :raises BadMove: a card code, a meld label or the text cannot be read.
    """
    typed = _typed(m)
    text = m.text.strip()
    if typed is None and not text:
        raise invalid_request("move", "set a typed move or its text")
    if typed is None:
        return _parse_text(text)
    if text and _parse_text(text) != typed:
        raise invalid_request("move.text", f"text {text!r} is not the typed move {typed}")
    return typed


# --- views and scores -------------------------------------------------------------


def side_score_pb(r: SideResult, seats: Sequence[int], out: game.SideScore) -> game.SideScore:
    out.team = r.team
    out.seats.extend(seats)
    out.total = r.total
    out.cumulative = r.cumulative
    b = out.breakdown
    b.base = r.base
    b.natural_canastas = r.natural_canastas
    b.mixed_canastas = r.mixed_canastas
    b.canasta_bonus = r.canasta_bonus
    b.going_out = r.going_out
    b.red_threes = r.red_threes
    b.red_three_points = r.red_three_points
    b.in_hand = r.in_hand
    b.penalties = r.penalties
    return out


def _meld_pb(v: MeldView, out: game.MeldView) -> None:
    out.rank = v.rank
    out.cards.extend(v.cards)
    out.owner = v.owner
    out.wilds = v.wilds
    out.canasta = v.canasta
    out.label = v.label
    out.kind = v.kind


def _side_pb(v: SideView, out: game.SideView) -> None:
    out.team = v.team
    out.seats.extend(v.seats)
    out.score = v.score
    out.minimum = v.minimum
    out.opened = v.opened
    out.pile_frozen = v.pile_frozen
    for m in v.melds:
        _meld_pb(m, out.melds.add())
    out.red_threes.extend(v.red_threes)


def view_pb(v: SeatView, teams: Sequence[Sequence[int]], out: game.SeatView) -> game.SeatView:
    """Fill ``out`` from an engine view."""
    out.seat = v.seat
    out.variant = v.variant
    out.players = v.players
    out.hand_no = v.hand_no
    out.dealer = v.dealer
    out.phase = v.phase
    out.turn_seat = v.turn_seat
    out.awaited = v.awaited
    out.hand.extend(v.hand)
    out.hand_sizes.extend(v.hand_sizes)
    out.stock_size = v.stock_size
    out.pile_size = v.pile_size
    out.pile_top = v.pile_top
    out.pile.extend(v.pile)
    out.pile_frozen = v.pile_frozen
    for s in v.sides:
        _side_pb(s, out.sides.add())
    out.asked = v.asked
    out.answer = v.answer
    out.staged.extend(v.staged)
    out.legal_moves.extend(v.legal_moves)
    for r in v.result:
        side_score_pb(r, teams[r.team], out.result.add())
    out.went_out = v.went_out
    out.winner = v.winner
    return out


def header_pb(h: Header, out: game.SnapshotHeader) -> game.SnapshotHeader:
    out.format_version = h.format_version
    out.key_id = h.key_id
    out.variant = h.variant
    out.game_id = h.game_uuid
    out.seq = h.seq
    out.imported = h.imported
    out.stacked = h.stacked
    return out


# --- the catalogue -------------------------------------------------------------------

_OPTION_TYPES = {bool: game.OPTION_TYPE_BOOL, int: game.OPTION_TYPE_INT}


def _option_pb(spec: OptionSpec, out: game.VariantOption) -> None:
    out.name = spec.name
    out.type = _OPTION_TYPES.get(spec.kind, game.OPTION_TYPE_CHOICE)
    if spec.default is not None:
        d = spec.default
        out.default_value = ("true" if d else "false") if isinstance(d, bool) else str(d)
    out.choices.extend(spec.choices)
    out.minimum = spec.minimum
    out.rule = spec.rule
    out.description = spec.doc


def variant_pb(info: VariantInfo, lang: str, out: game.Variant) -> game.Variant:
    out.id = info.id
    out.name = info.name_ru if lang == "ru" and info.name_ru else info.name
    out.min_players = info.min_players
    out.max_players = info.max_players
    for spec in info.options:
        _option_pb(spec, out.options.add())
    return out


# --- events ------------------------------------------------------------------------


def _event(kind: int, seat: int = -1, move: str = "", cards: Sequence[str] = (),
           count: int = 0, team: int = -1) -> game.Event:
    e = game.Event(type=kind, seat=seat, move=move, count=count, team=team)  # type: ignore[arg-type]
    e.cards.extend(cards)
    return e


def _red_threes(prev: AnyState | None, nxt: AnyState) -> list[game.Event]:
    out = []
    for seat, reds in enumerate(nxt.red3):
        before = len(prev.red3[seat]) if prev is not None else 0
        if len(reds) > before:
            out.append(_event(game.EVENT_TYPE_RED_THREES_LAID, seat,
                              cards=_cards(reds[before:])))
    return out


def _ending(prev_phase: Phase | None, nxt: AnyState) -> list[game.Event]:
    over = (Phase.HAND_OVER, Phase.GAME_OVER)
    if nxt.phase not in over or prev_phase in over or nxt.result is None:
        return []
    out = [_event(game.EVENT_TYPE_HAND_OVER, nxt.result.went_out)]
    if nxt.phase is Phase.GAME_OVER:
        out.append(_event(game.EVENT_TYPE_GAME_OVER, team=nxt.result.winner))
    return out


def _held(state: AnyState, seat: int) -> int:
    return len(state.hands[seat]) + len(state.red3[seat])


def _draws(prev: AnyState, nxt: AnyState, seat: int,
           from_pile: tuple[Card, ...]) -> list[tuple[int, list[Card]]]:
    """Who drew which stock cards in one move, the mover first (a May I? buy draws for
    the buyer and for the player in turn): the cards that reached a seat's hand or red
    threes and not from the pile."""
    gained = [s for s in range(len(nxt.hands))
              if _held(nxt, s) > _held(prev, s) or (s == seat and from_pile)]
    if not gained:
        return []
    left = len(nxt.stock)
    if len(gained) == 1 and not from_pile and prev.stock[:left] == nxt.stock:
        return [(gained[0], sorted(prev.stock[left:]))]  # the common case: one plain draw
    out = []
    for s in sorted(gained, key=lambda s: (s != seat, s)):
        got = Counter(nxt.hands[s]) + Counter(nxt.red3[s])
        got.subtract(Counter(prev.hands[s]) + Counter(prev.red3[s]))
        if s == seat:
            got.subtract(Counter(from_pile))
        if +got:
            out.append((s, sorted((+got).elements())))
    return out


def move_events(prev: AnyState, move: Move, seat: int, nxt: AnyState,
                viewer: int | None = None) -> list[game.Event]:
    """What happened when ``seat`` played ``move``, as ``viewer`` may see it.

    Everyone sees the same public events. The cards a seat drew from the stock
    (``CARDS_DRAWN``) or took with the pile (``PILE_TAKEN``) are in them only for
    that seat's own eyes and the host's (``viewer`` ``None``); ``-1`` is a spectator.
    """
    events = [_event(game.EVENT_TYPE_MOVE_PLAYED, seat, move=str(move))]
    from_pile: tuple[Card, ...] = ()
    if isinstance(move, TakePile):  # the Canasta games take the pile, May I? its top card
        from_pile = prev.pile[-1:] if isinstance(prev, MayIState) else prev.pile
        events.append(_event(game.EVENT_TYPE_PILE_TAKEN, seat, count=len(from_pile),
                             cards=_cards(from_pile) if viewer in (None, seat) else ()))
    elif isinstance(move, Buy):
        from_pile = prev.pile[-1:]
    for s, cards in _draws(prev, nxt, seat, from_pile):
        events.append(_event(game.EVENT_TYPE_CARDS_DRAWN, s, count=len(cards),
                             cards=_cards(cards) if viewer in (None, s) else ()))
    events += _red_threes(prev, nxt)
    if nxt.turn.seat != prev.turn.seat and nxt.awaited >= 0:
        events.append(_event(game.EVENT_TYPE_TURN_STARTED, nxt.turn.seat))
    return events + _ending(prev.phase, nxt)


def deal_events(state: AnyState) -> list[game.Event]:
    """The events of a fresh deal: who dealt, red threes laid, who plays first."""
    events = [_event(game.EVENT_TYPE_HAND_DEALT, state.dealer)]
    events += _red_threes(None, state)
    if state.awaited >= 0:
        events.append(_event(game.EVENT_TYPE_TURN_STARTED, state.turn.seat))
    return events + _ending(None, state)
