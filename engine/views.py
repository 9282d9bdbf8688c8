"""Per-seat views: what one seat may see, and nothing more (CL-INFO-1..6).

The engine, not the frontend, strips secrets: other hands become sizes, the
stock becomes a count, the pile becomes its top card (unless the
``reveal_discard_pile`` option says otherwise). Seat ``-1`` is a spectator.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.cards import CODES
from engine.legal import legal_moves, pile_frozen_for_both
from engine.mayi.state import is_mayi
from engine.melds import base_label, labels
from engine.scoring import hand_sides
from engine.state import Phase, SideResult, State


@dataclass(frozen=True, slots=True)
class MeldView:
    rank: str  # rank character, or the base label of a sequence (S:5-9) or wild meld (W)
    cards: tuple[str, ...]
    owner: int
    wilds: int
    canasta: str  # "", "natural" or "mixed"
    label: str = ""  # the label that ``add`` and ``take on`` name (K#2 for a second K group)
    kind: str = "group"  # group, black_threes, wild or sequence


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


def seat_view(state: State, seat: int) -> SeatView:
    """The view of ``seat`` (``-1`` for a spectator who holds no cards)."""
    if is_mayi(state):  # May I? is its own game: engine/mayi
        from engine.mayi import views as mayi_views  # it builds on this module

        return mayi_views.seat_view(state, seat)
    rules = state.rules
    both = pile_frozen_for_both(state)
    sides = []
    for t, seats in enumerate(rules.layout.teams):
        melds = tuple(
            MeldView(base_label(m), tuple(CODES[c] for c in m.cards), m.owner, m.wilds,
                     "natural" if m.is_natural_canasta else ("mixed" if m.is_canasta else ""),
                     label, m.kind)
            for m, label in zip(state.melds[t], labels(state.melds[t]), strict=True))
        sides.append(SideView(
            team=t, seats=seats, score=state.scores[t],
            minimum=rules.minimum_for(state.scores[t]), opened=state.opened[t],
            pile_frozen=both or not state.opened[t], melds=melds,
            red_threes=tuple(CODES[c] for s in seats for c in state.red3[s])))
    reveal = bool(rules.opt("reveal_discard_pile"))
    over = state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    result = state.result
    return SeatView(
        seat=seat, variant=rules.variant, players=rules.players, hand_no=state.hand_no,
        dealer=state.dealer, phase=state.phase.value, turn_seat=state.turn.seat,
        awaited=state.awaited,
        hand=tuple(CODES[c] for c in state.hands[seat]) if seat >= 0 else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock), pile_size=len(state.pile),
        pile_top=CODES[state.pile[-1]] if state.pile else "",
        pile=tuple(CODES[c] for c in state.pile) if reveal else (),
        pile_frozen=both, sides=tuple(sides), asked=state.turn.asked, answer=state.turn.answer,
        staged=tuple(str(m) for m in state.turn.staged),
        legal_moves=tuple(str(m) for m in legal_moves(state))
        if seat == state.awaited and seat >= 0 else (),
        result=result.sides if result and over else (),
        went_out=result.went_out if result else -1,
        winner=result.winner if result else -1,
    )


def seat_views(state: State) -> tuple[SeatView, ...]:
    """Every seat's view, building the public table once (what a service returns)."""
    base = seat_view(state, -1)
    legal = tuple(str(m) for m in legal_moves(state))
    return tuple(
        dataclasses.replace(
            base, seat=s, hand=tuple(CODES[c] for c in state.hands[s]),
            legal_moves=legal if s == state.awaited else ())
        for s in range(state.rules.players))


def provisional_score(state: State) -> tuple[SideResult, ...]:
    """The hand's score as it stands (or the final one once the hand is over)."""
    if is_mayi(state):  # May I? is its own game: engine/mayi
        from engine.mayi import views as mayi_views  # it builds on this module

        return mayi_views.provisional_score(state)
    if state.result is not None:
        return state.result.sides
    return hand_sides(state, -1, False)
