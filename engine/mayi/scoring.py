"""Deal scoring (MI-SCORE-1) and the game result (MI-GAME-1/2): lowest total wins.

>>> from engine.cards import parse_cards
>>> hand_points(parse_cards("AS KD 7C 2H"))
34
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.cards import ACE, RANK, TEN, Card
from engine.mayi.state import MayIResult, MayIState
from engine.state import SideResult


def _value(rank: int) -> int:
    if rank == ACE:
        return 15
    if rank >= TEN:
        return 10
    return rank + 2  # 2..9 at face value


VALUES: Final[tuple[int, ...]] = tuple(_value(RANK[c]) for c in range(52))  # MI-COMP-2


def hand_points(cards: Iterable[Card]) -> int:
    """Penalty points of cards left in a hand: A 15, K Q J 10 ten, others face value."""
    return sum(VALUES[c] for c in cards)


def _row(state: MayIState, seat: int, went_out: int) -> SideResult:
    points = 0 if seat == went_out else hand_points(state.hands[seat])
    return SideResult(team=seat, base=0, natural_canastas=0, mixed_canastas=0,
                      canasta_bonus=0, going_out=0, red_threes=0, red_three_points=0,
                      in_hand=points, penalties=0, total=points,
                      cumulative=state.scores[seat] + points)


def score_rows(state: MayIState, went_out: int = -1) -> tuple[SideResult, ...]:
    """One row per player: the deal's penalty points as things stand (MI-SCORE-1)."""
    return tuple(_row(state, s, went_out) for s in range(state.rules.players))


def deal_result(state: MayIState, went_out: int) -> MayIResult:
    """Score the deal; after the last deal of the schedule, name the winner(s) (MI-GAME-2)."""
    rows = score_rows(state, went_out)
    if state.hand_no + 1 < state.rules.deals:
        return MayIResult(went_out=went_out, concealed=False, sides=rows)
    best = min(r.cumulative for r in rows)
    winners = tuple(r.team for r in rows if r.cumulative == best)
    alone = len(winners) == 1
    return MayIResult(went_out=went_out, concealed=False, sides=rows,
                      winner=winners[0] if alone else -1, draw=not alone, winners=winners)


def game_over(result: MayIResult) -> bool:
    return bool(result.winners)
