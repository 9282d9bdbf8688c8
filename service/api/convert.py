"""Engine values ↔ ``canasta.v1`` messages. No rules here: only shapes.

Moves map one-to-one onto the ``Move.kind`` oneof: every move kind of every
variant (labelled melds of Samba and Bolivia, ``merge``, the May I? moves) has
its arm. A move kind the engine gains before the contract types it would travel
as ``text`` alone, so a new variant still works without a service change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from engine import events as engine_events
from engine.cards import CODES, RANK_CHARS, Card, parse_card, rank_of_char
from engine.events import Event, EventKind
from engine.mayi.moves import Buy, GoDown, LayOff, PassBuy, canonical_groups
from engine.mayi.state import AnyState
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
from engine.notation_lines import option_text
from engine.options import OptionSpec
from engine.state import SEQ_RANK, WILD_RANK, SideResult
from engine.variants import TableFacts, VariantInfo, table_facts
from engine.views import MeldView, SeatView, SideView
from service.api import jsonfmt
from service.api.access import shows_cards
from service.api.errors import invalid_request
from service.api.pb import game
from service.sealing.snapshot import Header

# The most moves one answer holds, in a view's legal_moves or a LegalMoves page: 1,000
# of the longest moves (May I? go-downs) are about 150 KB of JSON. Only forged or
# stacked May I? hands with non-default options list more (docs/operations.md).
MOVES_PER_ANSWER = 1000

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
    for t in r.canastas:
        b.canastas.add(kind=t.kind, count=t.count, bonus=t.bonus)
    return out


def _meld_pb(v: MeldView, out: game.MeldView) -> None:
    out.rank = v.rank
    out.cards.extend(v.cards)
    out.owner = v.owner
    out.wilds = v.wilds
    out.canasta = v.canasta
    out.label = v.label
    out.kind = v.kind
    out.canasta_kind = v.canasta_kind


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
    out.next_minimum = v.next_minimum


def view_moves_pb(legal: Sequence[str], out: game.SeatView) -> None:
    """A view's legal moves, cut at MOVES_PER_ANSWER, and how many there are."""
    out.legal_moves.extend(legal[:MOVES_PER_ANSWER])
    out.legal_moves_total = len(legal)


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
    view_moves_pb(v.legal_moves, out)
    for r in v.result:
        side_score_pb(r, teams[r.team], out.result.add())
    out.went_out = v.went_out
    out.winner = v.winner
    for reds in v.seat_red_threes:
        out.seat_red_threes.add().cards.extend(reds)
    out.upcards.extend(v.upcards)
    out.target_score = v.target_score
    out.deals = v.deals
    out.seats_in_play.extend(v.seats_in_play)
    out.draw_count = v.draw_count
    out.canastas_to_go_out = v.canastas_to_go_out
    out.wild_limit = v.wild_limit
    out.meld_side.extend(v.meld_side)
    out.lone_hand = v.lone_hand
    out.out_needs_sequence = v.out_needs_sequence
    if v.buys_left:  # May I?
        out.may_i.sets, out.may_i.sequences = v.contract
        out.may_i.buys_left.extend(v.buys_left)
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
    if spec.default is not None:  # as the notation writes it, and Deal reads it back
        out.default_value = option_text(spec.default)
    out.choices.extend(spec.choices)
    out.minimum = spec.minimum
    if spec.kind is int:
        out.maximum = spec.maximum
    out.rule = spec.rule
    out.description = spec.doc
    out.aliases.extend(spec.aliases)


def _table_pb(t: TableFacts, out: game.VariantTable) -> None:
    out.players = t.players
    out.packs = t.packs
    out.jokers = t.jokers
    out.cards = t.cards
    out.hand_size = t.hand_size
    out.draw_count = t.draw_count
    for seats in t.seats_in_play:
        out.seats_in_play.add().seats.extend(seats)
    for seats in t.sides:
        out.sides.add().seats.extend(seats)
    out.hand_sizes.extend(t.hand_sizes)
    out.canastas_to_go_out = t.canastas_to_go_out
    out.wild_limit = t.wild_limit
    out.target_score = t.target_score
    out.deals = t.deals
    for p in t.card_points:
        out.card_points.add(cards=p.cards, meld=p.meld, in_hand=p.in_hand,
                            counts_toward_minimum=p.counts_toward_minimum,
                            red_three=p.red_three, options=p.options)


def variant_pb(info: VariantInfo, lang: str, out: game.Variant) -> game.Variant:
    out.id = info.id
    out.name = info.name_ru if lang == "ru" and info.name_ru else info.name
    out.min_players = info.min_players
    out.max_players = info.max_players
    for spec in info.options:
        _option_pb(spec, out.options.add())
    for players in range(info.min_players, info.max_players + 1):
        _table_pb(table_facts(info.id, players), out.tables.add())
    return out


# --- events ------------------------------------------------------------------------


# The contract's event type of each engine event kind (a kind the contract lacks fails here,
# at import, not in a call).
_EVENT_TYPES = {k: game.EventType.Value(f"EVENT_TYPE_{k.name}") for k in EventKind}


def events_pb(events: Iterable[Event], viewer: int | None = None) -> list[game.Event]:
    """The messages of the engine's events as ``viewer`` may see them.

    Everyone sees the same events; whose eyes see a private one's cards is
    :func:`service.api.access.shows_cards`'s to say.
    """
    out = []
    for e in events:
        msg = game.Event(type=_EVENT_TYPES[e.kind], seat=e.seat, move=e.move,
                         count=e.count, team=e.team)
        if e.cards and shows_cards(viewer, e.seat, e.private):
            msg.cards.extend(_cards(e.cards))
        out.append(msg)
    return out


def move_events(prev: AnyState, move: Move, seat: int, nxt: AnyState,
                viewer: int | None = None) -> list[game.Event]:
    """What happened when ``seat`` played the canonical ``move`` from ``prev`` to ``nxt``
    (:func:`engine.events.move_events`), as ``viewer`` may see it (:func:`events_pb`)."""
    return events_pb(engine_events.move_events(prev, move, seat, nxt), viewer)
