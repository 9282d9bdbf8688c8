"""Per-seat views: what one seat may see, and nothing more (CL-INFO-1..6).

The engine, not the frontend, strips secrets: other hands become sizes, the
stock becomes a count, the pile becomes its top card (unless the
``reveal_discard_pile`` option says otherwise). Seat ``-1`` is a spectator.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from mypy_extensions import mypyc_attr

from engine.cards import CODES, Card
from engine.games import game_of
from engine.legal import canasta_legal_moves_for, legal_moves, legal_moves_for
from engine.mayi.state import AnyState
from engine.melds import base_label, canasta_kind, labels
from engine.rule_counts import rule_counts
from engine.rules import Layout
from engine.scoring import hand_sides
from engine.state import MeldPile, Phase, SideResult, State, next_scores
from engine.takes import pile_frozen_for_both


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class MeldView:
    rank: str  # rank character, or the base label of a sequence (S:5-9) or wild meld (W)
    cards: tuple[str, ...]
    owner: int
    wilds: int
    canasta: str  # "", "natural" or "mixed"
    label: str = ""  # the label that ``add`` and ``take on`` name (K#2 for a second K group)
    kind: str = "group"  # group, black_threes, wild or sequence
    # the canasta's kind as its game names it: natural, mixed, samba, escalera or bolivia
    canasta_kind: str = ""


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SideView:
    team: int
    seats: tuple[int, ...]
    score: int
    minimum: int
    opened: bool
    pile_frozen: bool  # frozen against this side (CL-PILE-3/4)
    melds: tuple[MeldView, ...]
    red_threes: tuple[str, ...]
    # once the hand is over and the game goes on, the minimum the side's new total gives
    # for the next hand (CL-MIN-1); 0 while the hand is played, at the game's end, in May I?
    next_minimum: int = 0


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    variant: str
    players: int
    hand_no: int
    dealer: int
    phase: str
    turn_seat: int
    awaited: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile_size: int
    pile_top: str
    pile: tuple[str, ...]  # only with reveal_discard_pile
    pile_frozen: bool  # frozen for both sides
    sides: tuple[SideView, ...]
    asked: bool
    answer: str
    staged: tuple[str, ...]
    legal_moves: tuple[str, ...]  # only for the awaited seat
    result: tuple[SideResult, ...]  # final score once the hand is over
    went_out: int
    winner: int
    # The public table a player sees across it, the same in every view:
    # red threes laid, per seat (the sides' red_threes add up their seats')
    seat_red_threes: tuple[tuple[str, ...], ...] = ()
    # the cards turned up at the deal to start the pile, in the order turned
    upcards: tuple[str, ...] = ()
    # May I?: the deal's contract (sets, sequences) and each seat's buys left (-1: no limit)
    contract: tuple[int, int] = (0, 0)
    buys_left: tuple[int, ...] = ()
    # the score that ends the game as dealt (CL-GAME-1); 0: none does (SV-GAME-1, May I?)
    target_score: int = 0
    # how many deals the game plays when their number ends it (SV-GAME-1: four; MI-GAME-1:
    # the schedule's); 0: a score ends it. With hand_no, a client says "deal 2 of 4"
    deals: int = 0
    # the seats that play this hand, in the order they play (CL-P5-2, CL-P6-11: the others
    # sit it out, holding no card); every seat when all play
    seats_in_play: tuple[int, ...] = ()
    # what ListVariants' table states, the game's options applied (engine.rule_counts):
    # cards a stock draw takes, canastas a side needs to go out (0: no count lets it) and
    # most wild cards in a group (0: none)
    draw_count: int = 0
    canastas_to_go_out: int = 0
    wild_limit: int = 0
    # per seat, the index in ``sides`` of the side whose melds it lays and adds to: its team,
    # but in cutthroat, where the two seats beside the lone hand share one side once it has
    # taken the pile (CL-P3-2), so a client can tell them partners
    meld_side: tuple[int, ...] = ()
    # cutthroat: the lone hand's seat once someone has taken the pile, else -1
    lone_hand: int = -1
    # going out needs a sequence canasta among its canastas (BO-C1: bolivia.going_out hoyle)
    out_needs_sequence: bool = False


def seats_in_play(layout: Layout, hand_no: int) -> tuple[int, ...]:
    """The seats that play hand ``hand_no``, in the order they play: the view's
    ``seats_in_play``, from the layout the engine deals by. Not seat order: with five
    players the third hand plays 0, 3, 2, 4, so that partners sit opposite (CL-P5-3)."""
    return layout.active(hand_no)


def codes(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """The text codes of some cards."""
    return tuple(map(CODES.__getitem__, cards))


@lru_cache(maxsize=4096)
def meld_views(melds: tuple[MeldPile, ...],
               names: tuple[tuple[str, str], ...]) -> tuple[MeldView, ...]:
    """The views of one side's melds (``names``: the game's canasta names). Pure, and
    memoized: a side's melds mostly stay as they are from one move to the next, and every
    answer shows them."""
    return tuple(
        MeldView(base_label(m), codes(m.cards), m.owner, m.wilds,
                 "natural" if m.is_natural_canasta else ("mixed" if m.is_canasta else ""),
                 label, m.kind, canasta_kind(m, names))
        for m, label in zip(melds, labels(melds), strict=True))


def seat_view(state: AnyState, seat: int) -> SeatView:
    """The view of ``seat`` (``-1`` for a spectator who holds no cards)."""
    view: SeatView = game_of(state).seat_view(state, seat)
    return view


def canasta_seat_view(state: State, seat: int) -> SeatView:
    """:func:`seat_view` of a Canasta-family state."""
    rules = state.rules
    both = pile_frozen_for_both(state)
    # the next hand's scores once this one is over and the game goes on (the public result)
    nxt = next_scores(state) if state.phase is Phase.HAND_OVER else ()
    sides = []
    for t, seats in enumerate(rules.layout.teams):
        sides.append(SideView(
            team=t, seats=seats, score=state.scores[t],
            minimum=rules.minimum_for(state.scores[t]), opened=state.opened[t],
            pile_frozen=both or not state.opened[t],
            melds=meld_views(state.melds[t], rules.canasta_names),
            red_threes=tuple(CODES[c] for s in seats for c in state.red3[s]),
            next_minimum=rules.minimum_for(nxt[t]) if nxt else 0))
    reveal = rules.reveal_discard_pile
    over = state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    result = state.result
    counts = rule_counts(rules)
    return SeatView(
        seat=seat, variant=rules.variant, players=rules.players, hand_no=state.hand_no,
        dealer=state.dealer, phase=state.phase.value, turn_seat=state.turn.seat,
        awaited=state.awaited,
        hand=codes(state.hands[seat]) if seat >= 0 else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock), pile_size=len(state.pile),
        pile_top=CODES[state.pile[-1]] if state.pile else "",
        pile=codes(state.pile) if reveal else (),
        pile_frozen=both, sides=tuple(sides), asked=state.turn.asked, answer=state.turn.answer,
        staged=tuple(str(m) for m in state.turn.staged),
        legal_moves=tuple(str(m) for m in canasta_legal_moves_for(state, seat)),
        result=result.sides if result and over else (),
        went_out=result.went_out if result else -1,
        winner=result.winner if result else -1,
        seat_red_threes=tuple(codes(r) for r in state.red3),
        upcards=codes(state.upcards),
        target_score=rules.target,
        deals=rules.deals,
        seats_in_play=seats_in_play(rules.layout, state.hand_no),
        draw_count=counts.draw_count,
        canastas_to_go_out=counts.canastas_to_go_out,
        wild_limit=counts.wild_limit,
        meld_side=state.side_of,
        lone_hand=state.lone,
        out_needs_sequence=rules.out_needs_sequence,
    )


# The fields in which the views of one state differ; the rest is the public table.
PRIVATE_FIELDS: Final = ("seat", "hand", "legal_moves")


def seat_views(state: AnyState) -> tuple[SeatView, ...]:
    """Every seat's view, the public table built once: the spectator's view with each
    seat's :func:`private_parts`, as the service assembles its answers (it converts the
    table once and sets the parts per seat; the property tests hold each of these equal
    to ``seat_view(state, seat)``). They differ only in :data:`PRIVATE_FIELDS`.
    """
    base = seat_view(state, -1)
    return tuple(_private(base, *part) for part in private_parts(state))


def private_parts(state: AnyState) -> tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]:
    """Per seat, the fields of its view that the spectator's view lacks: ``(seat, hand,
    legal_moves)``. With ``seat_view(state, -1)`` they make every seat's view, so a
    service can convert the public table once."""
    awaited = state.awaited
    legal = tuple(str(m) for m in legal_moves(state)) if awaited >= 0 else ()
    parts = []
    for s in range(state.rules.players):
        # the awaited seat's moves; in a May I? buy window with buy_priority=first_call
        # the other seats of the window may answer too
        mine = legal if s == awaited else tuple(str(m) for m in legal_moves_for(state, s))
        parts.append((s, codes(state.hands[s]), mine))
    return tuple(parts)


def _private(base: SeatView, seat: int, hand: tuple[str, ...],
             legal: tuple[str, ...]) -> SeatView:
    """``base`` with one seat's private fields: a field-by-field copy, as
    ``dataclasses.replace`` would make, without re-running ``__init__``."""
    view = object.__new__(SeatView)
    for name in _PUBLIC_SLOTS:
        object.__setattr__(view, name, getattr(base, name))
    object.__setattr__(view, "seat", seat)
    object.__setattr__(view, "hand", hand)
    object.__setattr__(view, "legal_moves", legal)
    return view


_PUBLIC_SLOTS: Final = tuple(f.name for f in dataclasses.fields(SeatView)
                      if f.name not in PRIVATE_FIELDS)


def provisional_score(state: AnyState, seat: int | None = None) -> tuple[SideResult, ...]:
    """The hand's score as it stands (or the final one once the hand is over).

    While the hand is played, ``seat`` scores it as that seat may know it: the cards
    left in the other hands count for nothing (``-1``: a spectator's, no hand counts).
    ``None`` counts every hand.
    """
    game = game_of(state)
    if seat is not None and state.result is None:
        hands = tuple(h if s == seat else () for s, h in enumerate(state.hands))
        state = game.evolve(state, hands=hands)
    score: tuple[SideResult, ...] = game.provisional_score(state)
    return score


def canasta_provisional_score(state: State) -> tuple[SideResult, ...]:
    """:func:`provisional_score` of a Canasta-family state."""
    if state.result is not None:
        return state.result.sides
    return hand_sides(state, -1, False)


def canasta_standing(state: State, seat: int, hand_credit: float) -> float:
    """How good ``state`` is for ``seat`` (a bot's measure): its side's points less the
    other sides' mean; before the hand's end each side's cards in hand count
    ``hand_credit`` of their value (the hand's score counts them as a loss)."""
    team = state.rules.layout.seat_team[seat]
    over = state.result is not None
    mine = 0.0
    rest = 0.0
    rows = canasta_provisional_score(state)
    for row in rows:
        value = row.total if over else row.total + (1 + hand_credit) * row.in_hand
        if row.team == team:
            mine = value
        else:
            rest += value
    return mine - rest / max(1, len(rows) - 1)

