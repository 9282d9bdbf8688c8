"""May I?'s bot heuristics: ``greedy``, and the ``expert``'s own play in its search.

``greedy`` (:func:`greedy_move`) goes down as soon as the contract allows, lays off,
takes or buys a discard only when it builds toward the contract and discards its most
expensive useless card: it plays for few penalty points.

The expert (:mod:`engine.expert`) plays to go out first. Its searching seat plays its
playouts, and orders its candidates, by :func:`own_scores`: greedy's scores changed as
below, each measured cumulatively as a whole policy against three greedy players, in
each seat in turn (4 players, deal 1; greedy goes out first in 0.24-0.25 of deals in
that seat; docs/bots.md has the figures):

* it never buys: the bought card comes with a penalty card, and the larger hand goes
  out later;
* once down it discards the card of the rank with the fewest copies it has not seen,
  the card least likely to fit a meld laid later, where greedy throws the most points;
* before it goes down it takes a discard that pairs a card, not only one that
  completes a set;
* before it goes down it keeps a card that fits a meld on the table (a sure lay-off
  once down) over one that only pairs, and takes such a discard, while its hand keeps
  room for the contract's cards beside the cards only a lay-off can use (without that
  room a hand of lay-offs can stall its going down for ever);
* before it goes down, among cards equally useful, it discards the rank with the
  fewest copies unseen, the least likely to be drawn into a set.

With all of them it goes out first in 0.38 of deals (0.35 with the first three).
"""

from __future__ import annotations

import random
from typing import Final

from engine.bots import Ranking, best_move
from engine.cards import RANK, SUIT, Card
from engine.mayi.legal import legal_moves
from engine.mayi.moves import Buy, GoDown, LayOff, MayIMove, PassBuy
from engine.mayi.state import BUY_WINDOW, MayIState
from engine.mayi.transitions import PACKS
from engine.mayi.views import standing
from engine.moves import Discard, Draw, TakePile

# Penalty points of a card left in hand (MI-SCORE-1): A 15, T J Q K 10, others face value.
_POINTS: Final = tuple(15 if r == 12 else 10 if r >= 8 else r + 2 for r in (c >> 2 for c in range(52)))
POINTS_WEIGHT: Final = 0.01  # a penalty point's worth beside going out first (1)
# Before going down, the use of a card that fits a meld on the table (a sure lay-off once
# down): above a card that pairs one in hand (1.5), below one of a set (3)
FITS_TABLE: Final = 2.5


def greedy_move(state: MayIState, rng: random.Random) -> MayIMove:
    """:func:`engine.bots.greedy_move` in May I?."""
    return best_move(legal_moves(state), lambda m: _greedy_score(state, m), rng)


def own_move(state: MayIState, rng: random.Random) -> MayIMove:
    """The expert's own move in a playout: the best by :func:`own_scores`."""
    moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    scores = own_scores(state, moves)
    at = {id(m): i for i, m in enumerate(moves)}
    return best_move(moves, lambda m: scores[at[id(m)]], rng)


def ranking(state: MayIState) -> Ranking[MayIMove]:
    """:func:`engine.bots.ranked_moves`' input in May I?: the expert's own scores (every
    listed move is playable)."""
    moves = legal_moves(state)
    return moves, own_scores(state, moves), lambda m: True


def own_scores(state: MayIState, moves: list[MayIMove]) -> list[float]:
    """The expert's preference of each move of ``state.awaited`` (see the module's
    docstring): greedy's, but it never buys, takes a discard that pairs a card or fits
    the table, keeps cards that fit the table and discards by the copies unseen."""
    if state.phase is BUY_WINDOW:  # it never buys
        return [0.0 if isinstance(move, Buy) else _greedy_score(state, move) for move in moves]
    seat = state.awaited
    hand = state.hands[seat]
    down = state.down[seat]
    unseen = _unseen(state, seat)
    # before going down: which cards of the hand fit the table, which of them only a
    # lay-off can use, and the hand's room for those beside the contract's cards
    fits = [] if down else [_fits_table(state, c) for c in hand]
    only, extra = _layoff_only(hand, unseen, fits)
    room = len(hand) - state.rules.contract_cards(state.hand_no) - extra
    scores: list[float] = []
    for move in moves:
        if isinstance(move, Discard) and len(hand) > 1:
            card: int = move.card
            useful = _discard_use(state, seat, card, hand)
            if down:
                score = -100.0 if useful else -10.0 * unseen[RANK[card]]
            else:
                # a card that fits the table is kept while the hand without it keeps
                # room for the contract, so that lay-offs cannot stall its going down
                at = hand.index(card)
                if fits[at] and room - 1 + only[at] > 0:
                    useful += FITS_TABLE
                score = -8 * useful - unseen[RANK[card]]
            scores.append(score + _POINTS[card] / 100)
        elif isinstance(move, TakePile) and not down:
            top: int = state.pile[-1]
            take = (_useful(state, seat, top, hand) >= 1.5
                    or (room > 0 and _fits_table(state, top)))
            scores.append(2.0 if take else 0.0)
        else:
            scores.append(_greedy_score(state, move))
    return scores


def _unseen(state: MayIState, seat: int) -> list[int]:
    """Copies of each rank that ``seat`` has not seen: not in its hand, the pile or a meld."""
    unseen = [4 * PACKS] * 13
    for c in state.hands[seat]:
        unseen[RANK[c]] -= 1
    for c in state.pile:
        unseen[RANK[c]] -= 1
    for melds in state.melds:
        for meld in melds:
            for c in meld.cards:
                unseen[RANK[c]] -= 1
    return unseen


def _layoff_only(hand: tuple[Card, ...], unseen: list[int],
                 fits: list[bool]) -> tuple[list[bool], int]:
    """Which cards of ``hand`` only a lay-off can use, and how many there are (none when
    ``fits``, which cards fit a meld on the table, is empty): a card that fits and cannot
    help make a set, being alone of its rank or one of a pair whose rank has no copy left
    unseen, and the copies beyond a set's three of a rank (for each of those copies the
    flag is set, the count has one per copy beyond three)."""
    if not fits:
        return [], 0
    counts = [0] * 13
    for c in hand:
        counts[RANK[c]] += 1
    only: list[bool] = []
    total = sum(n - 3 for n in counts if n > 3)
    for c, fit in zip(hand, fits, strict=True):
        n = counts[RANK[c]]
        lone = fit and (n == 1 or (n == 2 and unseen[RANK[c]] == 0))
        total += lone
        only.append(lone or n > 3)
    return only, total


def _useful(state: MayIState, seat: int, card: int, hand: tuple[int, ...]) -> float:
    """How much ``card`` helps ``seat`` holding ``hand`` (without it): toward the
    contract before going down, as a lay-off afterwards (0: no help)."""
    if state.down[seat]:
        return 3.0 if _fits_table(state, card) else 0.0
    sets, runs = state.rules.contract(state.hand_no)
    rank, suit = RANK[card], SUIT[card]
    useful = 0.0
    counts = [0] * 13
    for c in hand:
        counts[RANK[c]] += 1
    # sets already held without this card's rank: more than the contract's are no help
    sets_done = sum(1 for r, n in enumerate(counts) if n >= 3 and r != rank) >= sets
    if sets:
        same = counts[rank]
        if sets_done:
            useful += 0.5 if same >= 2 else 0.0
        else:
            useful += 3.0 if same == 2 else 1.5 if same == 1 else 0.5 if same >= 3 else 0.0
    if runs:
        near = {RANK[c] for c in hand if SUIT[c] == suit and RANK[c] != rank
                and min((RANK[c] - rank) % 13, (rank - RANK[c]) % 13) <= 3}
        useful += (2.0 if sets_done or not sets else 1.0) * len(near)
    return useful


def _discard_use(state: MayIState, seat: int, card: int, hand: tuple[Card, ...]) -> float:
    """:func:`_useful` of a card of ``hand`` beside the rest of it: what discarding it gives up."""
    rest: list[int] = list(hand)
    rest.remove(card)
    return _useful(state, seat, card, tuple(rest))


def _fits_table(state: MayIState, card: int) -> bool:
    for melds in state.melds:
        for m in melds:
            if m.is_run:
                n = m.length
                if SUIT[card] == m.suit and n < 13 and RANK[card] in (
                        (m.start - 1) % 13, (m.start + n) % 13):
                    return True
            elif RANK[card] == m.rank:
                return True
    return False


def _greedy_score(state: MayIState, move: MayIMove) -> float:
    seat = state.awaited
    hand = state.hands[seat]
    if isinstance(move, GoDown):
        left = list(hand)
        for g in move.groups:
            for c in g:
                left.remove(c)
        return 10_000 - sum(_POINTS[c] for c in left) / 10
    if isinstance(move, LayOff):
        return 5_000 + _POINTS[move.card]
    if isinstance(move, Discard):
        if len(hand) == 1:
            return 20_000  # the last card: going out
        return _POINTS[move.card] - 8 * _discard_use(state, seat, move.card, hand)
    top = state.pile[-1] if state.pile else None
    if isinstance(move, TakePile):
        return 2 if top is not None and _useful(state, seat, top, hand) >= 2.5 else 0
    if isinstance(move, Draw):
        return 1
    if isinstance(move, Buy):
        if top is None or state.down[seat]:
            return 0
        return 2 if _useful(state, seat, top, hand) >= 3 else 0
    if isinstance(move, PassBuy):
        return 1
    return 0.0  # a move kind this bot does not know: neutral


def playout_value(state: MayIState, seat: int) -> float:
    """The expert's value of a playout's end for ``seat``: 1 if it went out first, plus
    :data:`POINTS_WEIGHT` of its standing (the others' mean penalty points less its own),
    so that the search plays to win the deal and, among deals it loses, for fewer
    points. Scored by points alone, it went out first in 0.32 of deals (docs/bots.md)."""
    won = state.result is not None and state.result.went_out == seat
    return (1.0 if won else 0.0) + POINTS_WEIGHT * standing(state, seat)


__all__ = ["POINTS_WEIGHT", "greedy_move", "own_move", "own_scores", "playout_value", "ranking"]
