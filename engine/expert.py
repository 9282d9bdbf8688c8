"""The ``expert`` bot: determinized Monte Carlo search on what its seat may know.

The expert is handed the seat's redacted state (:func:`engine.observation.redact`),
so the other hands and the stock are only known as a pool of hidden cards and
their sizes. To choose a move it

1. lists a few candidate moves: the game's favourites of each kind of move
   (:func:`engine.bots.ranked_moves`: greedy's in the Canasta family, in May I? the
   expert's own preference, :mod:`engine.mayi.bots`), so a discard is weighed
   against a meld;
2. deals the hidden cards again, many times, consistently with the view
   (:func:`sample`): each other hand keeps its size, a hidden red three lies in
   the stock or in the hand of a seat that has not yet begun a turn (every other
   hand has laid its own), a turn's staged cards stay on its base hand;
3. for each sampled deal plays every candidate out, greedy in the other seats and
   the same preference in its own, until the turn has gone round twice (May I?: to
   the deal's end), or the hand ends, and scores the position (:func:`evaluate`):
   in the Canasta family the hand's score when it ended, else the points on the
   table with half the value of the cards in hand credited (the makings of melds:
   so it keeps wild cards and takes a rich pile as greedy does); in May I?, going
   out first;
4. keeps its first choice unless another candidate beats it clearly: by the most in
   the mean over the samples less one standard error of the difference (with a few
   noisy samples per candidate, the best mean alone picks the luckiest move, not the
   best: measured, docs/bots.md).

Every candidate is played out on the same sampled deals with the same random
stream (common random numbers), so the comparison measures the moves, not the
luck of the samples. The ``budget`` is the number of playouts (candidates times
samples): the strength between its first choice (budget 1; greedy's in the Canasta
family) and the strongest the server allows (:data:`MAX_BUDGET`); unset, the game's default
(:data:`DEFAULT_BUDGETS`: what fits 300 ms on one core). The answer is a function
of the view, the budget and the random stream of :func:`engine.bots.bot_rng`,
so it is deterministic for a seed and cannot depend on a hidden card.

A search takes up to seconds at the largest budget, so its caller may hand it an
``interrupt``, called before each round of samples (one playout per candidate): it
raises to abandon the search, as the service's does once nobody waits for the answer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

from engine.bots import ranked_moves
from engine.errors import BadInput, Reason
from engine.games import game_of
from engine.mayi.state import AnyState
from engine.moves import Move
from engine.observation import redeal

# Playouts of one decision when the caller sets none, per game and player count: about
# the most whose decision time stays under 300 ms CPU at the 95th percentile on one
# core of a shared two-core machine (measured, docs/bots.md; more players make longer
# playouts).
DEFAULT_BUDGETS: Final[dict[str, dict[int, int]]] = {
    "classic": {2: 288, 3: 288, 4: 288, 5: 230, 6: 128},
    "samba": {4: 192},
    "bolivia": {4: 144},
    "bolivia_sevens": {4: 144},
    "may_i": {3: 288, 4: 288, 5: 192},
}
MAX_BUDGET: Final = 500  # the most a caller may ask for (more is clamped): bounds a call's CPU time
CANDIDATES: Final = 8  # moves compared at most
PER_KIND: Final = 3  # best moves of each kind (meld, discard, take, ...) among the candidates
ROUNDS: Final = 2  # Canasta family: a playout stops when the turn has gone round this many times
# standard errors a candidate must beat greedy's choice by (measured, docs/bots.md)
CAUTION: Final = 1.0
MAX_PLIES: Final = 1000  # a playout's safety stop
HAND_CREDIT: Final = 0.5  # Canasta family, before the hand's end: share of a held card's value counted


def default_budget(variant: str, players: int) -> int:
    """The playouts of a decision in ``variant`` when the caller sets none."""
    return DEFAULT_BUDGETS[variant][players]


def clamp_budget(budget: int | None, variant: str, players: int) -> int:
    """The playouts a decision runs: the game's default for ``None``, at most
    :data:`MAX_BUDGET`.

    :raises BadInput: ``BAD_OPTION_VALUE`` for a budget below 1.
    """
    if budget is None:
        return default_budget(variant, players)
    if budget < 1:
        raise BadInput(Reason.BAD_OPTION_VALUE,
                       f"the bot budget must be at least 1 playout, not {budget}")
    return min(budget, MAX_BUDGET)


def expert_move(view: AnyState, rng: random.Random, budget: int | None = None,
                interrupt: Callable[[], None] | None = None) -> Move:
    """The move of ``view.awaited`` the search finds best (see the module's docstring),
    with ``budget`` playouts (``None``: the game's default). ``interrupt`` is called
    before each round of samples, and what it raises ends the search.

    ``view`` should be the seat's redacted state: the search only ever reads the
    hidden cards as a pool to deal again, but what it is handed is what it knows.
    """
    seat = view.awaited
    if budget is None:
        budget = default_budget(view.rules.variant, view.rules.players)
    candidates = ranked_moves(view, min(CANDIDATES, budget), PER_KIND)
    if len(candidates) == 1:
        return candidates[0]
    values: list[list[float]] = [[] for _ in candidates]
    apply = game_of(view).apply
    for _ in range(budget // len(candidates)):
        if interrupt is not None:
            interrupt()
        deal = sample(view, seat, rng)
        stream = rng.getrandbits(64)
        for i, move in enumerate(candidates):
            after = apply(deal, move, None)
            values[i].append(playout(after, seat, random.Random(stream)))
    best = 0
    best_bound = 0.0
    for i in range(1, len(candidates)):
        bound = _lower_bound([v - g for v, g in zip(values[i], values[0], strict=True)], CAUTION)
        if bound > best_bound:
            best, best_bound = i, bound
    return candidates[best]


def _lower_bound(gains: list[float], caution: float) -> float:
    """A cautious estimate of a candidate's gain over greedy's choice, sample by sample:
    the mean less ``caution`` standard errors (the mean alone from one sample), so the
    expert leaves greedy's move only when the playouts clearly favour another."""
    n = len(gains)
    mean = sum(gains) / n
    if n < 2:
        return mean
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean - caution * math.sqrt(var / n)


def sample(view: AnyState, seat: int, rng: random.Random) -> AnyState:
    """``view`` with its hidden cards dealt again at random, consistently with what
    ``seat`` knows (:func:`engine.observation.redeal`)."""
    return redeal(view, seat, rng)


def playout(state: AnyState, seat: int, rng: random.Random) -> float:
    """Play greedy in the other seats and the game's own policy in ``seat``
    (:meth:`engine.games.Game.own_move`: greedy in the Canasta family) and
    :func:`evaluate` the position for ``seat``: when the turn has gone round
    :data:`ROUNDS` times (or the hand ends), or at the deal's end in a game of short
    deals and fast moves (May I?)."""
    game = game_of(state)
    greedy = game.greedy_move
    own = game.own_move
    apply = game.apply
    stop = MAX_PLIES if game.short_deals else ROUNDS * len(state.hands)
    turn_seat = state.turn.seat
    changes = plies = 0
    while state.result is None and plies < MAX_PLIES:
        if state.turn.seat != turn_seat:
            turn_seat = state.turn.seat
            changes += 1
            if changes >= stop:
                break
        move = own(state, rng) if state.awaited == seat else greedy(state, rng)
        state = apply(state, move, None)
        plies += 1
    return evaluate(state, seat)


def evaluate(state: AnyState, seat: int) -> float:
    """How good ``state`` is for ``seat`` (:meth:`engine.games.Game.playout_value`). In
    the Canasta family: its side's points minus the others' mean, where before the
    hand's end :data:`HAND_CREDIT` of the value of the cards in hand counts (as a cost
    they would make the seat throw its best cards away; as nothing, the same for wild
    cards and fours). In May I?, which is won by going out first: 1 when the seat went
    out, plus a small weight of the others' mean penalty points less its own
    (:func:`engine.mayi.bots.playout_value`)."""
    return game_of(state).playout_value(state, seat, HAND_CREDIT)


__all__ = ["DEFAULT_BUDGETS", "MAX_BUDGET", "clamp_budget", "default_budget",
           "evaluate", "expert_move", "playout", "sample"]
