"""Bots that pick a legal move: deterministic for a seed, pure functions of the state.

``random``: a uniformly random legal move. ``greedy``: a one-ply heuristic that
goes out when it may, takes a rich pile, melds what pays, never feeds the pile
to the opponents when it can help it, and answers "may I go out?" by the
canastas on the table. Both only ever return a move from ``legal_moves``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.cards import IS_BLACK_THREE, RANK
from engine.legal import legal_moves
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Meld,
    Move,
    TakePile,
    Undo,
)
from engine.state import State

_COMMITS = (Discard, GoOut, EndHand)


def random_move(state: State, rng: random.Random) -> Move:
    """A uniformly random legal move.

    ``undo`` is left out while the turn can be ended, so random play moves on;
    when staged melds leave no way to end the turn, ``undo`` is one of the
    choices, so random play always backs out of a dead end.
    """
    moves = legal_moves(state)
    if any(isinstance(m, _COMMITS) for m in moves):
        moves = [m for m in moves if not isinstance(m, Undo)]
    return rng.choice(moves)


def greedy_move(state: State, rng: random.Random) -> Move:
    """The best legal move by a one-ply heuristic; ties broken by ``rng``."""
    moves = legal_moves(state)
    scored = [(_score(state, m), i) for i, m in enumerate(moves)]
    best = max(s for s, _ in scored)
    return moves[rng.choice([i for s, i in scored if s == best])]


BOTS: dict[str, Callable[[State, random.Random], Move]] = {
    "random": random_move,
    "greedy": greedy_move,
}


def _score(state: State, move: Move) -> float:
    rules = state.rules
    values = rules.values
    seat = state.awaited
    if isinstance(move, GoOut):
        return 10_000
    if isinstance(move, Answer):
        team = state.team_of(state.turn.seat)
        ready = sum(1 for m in state.melds[team] if m.is_canasta) >= rules.canastas_to_go_out
        return 1 if move.yes == ready else 0
    if isinstance(move, TakePile):
        pile = state.pile
        gain = sum(values[c] for c in pile) + 15 * len(pile)
        return 100 + gain - 2 * len(move.cards) - 5 * sum(len(g) for g in move.extras)
    if isinstance(move, Draw):
        return 50
    if isinstance(move, Decline):
        return -50
    if isinstance(move, Meld | AddToMeld):
        return 200 + _meld_gain(state, move)
    if isinstance(move, Discard):
        return -_keep_value(state, seat, move.card)
    if isinstance(move, EndHand):
        return -1
    if isinstance(move, Ask | Undo):
        return -10_000
    return 0.0


def _meld_gain(state: State, move: Meld | AddToMeld) -> float:
    values = state.rules.values
    wild = state.rules.wild
    cards = move.cards if isinstance(move, AddToMeld) else tuple(c for g in move.groups for c in g)
    gain = float(sum(values[c] for c in cards))
    team = state.team_of(state.turn.seat)
    if isinstance(move, AddToMeld):
        meld = next((m for m in state.melds[team] if m.rank == move.rank), None)
        if meld is not None and meld.size < 7 <= meld.size + len(cards):
            gain += 300
    # keep wild cards for canastas rather than spreading them early
    gain -= 15 * sum(1 for c in cards if wild[c])
    left = len(state.hands[state.turn.seat]) - len(cards)
    return gain - (40 if left <= 2 else 0)


def _keep_value(state: State, seat: int, card: int) -> float:
    """How much it costs to discard ``card``: high for wilds and for cards that
    feed an opponent's meld, low for black threes and lone high cards."""
    rules = state.rules
    if IS_BLACK_THREE[card]:
        return 0
    if rules.wild[card]:
        return 500
    rank = RANK[card]
    team = state.team_of(seat)
    cost = 10.0 - rules.values[card] / 10
    hand = state.hands[seat]
    same = sum(1 for c in hand if RANK[c] == rank and not rules.wild[c])
    cost += 30 * (same - 1)
    for other, melds in enumerate(state.melds):
        if other != team and any(m.rank == rank for m in melds):
            cost += 200  # the next player could take the pile with it
    if any(m.rank == rank for m in state.melds[team]):
        cost += 40
    return cost
