"""The ``expert`` bot: determinized Monte Carlo search on what its seat may know.

The expert is handed the seat's redacted state (:func:`engine.observation.redact`),
so the other hands and the stock are only known as a pool of hidden cards and
their sizes. To choose a move it

1. lists a few candidate moves: the greedy bot's favourites of each kind of move
   (:func:`engine.bots.ranked_moves`), so a discard is weighed against a meld;
2. deals the hidden cards again, many times, consistently with the view
   (:func:`sample`): each other hand keeps its size, a seat that was dealt a red
   three and has not yet had a turn holds one, the other red threes lie in the
   stock (a hand lays them at once), a turn's staged cards stay on its base hand;
3. for each sampled deal plays every candidate out with the greedy bot in every
   seat (its own included) until the turn has gone round twice (May I?: to the
   deal's end), or the hand ends, and scores the position (:func:`evaluate`): the
   hand's score when it ended, else the points on the table with half the value of
   the cards in hand credited (the makings of melds: so it keeps wild cards and
   takes a rich pile as greedy does);
4. keeps greedy's choice unless another candidate beats it clearly: by the most in
   the mean over the samples less one standard error of the difference (with a few
   noisy samples per candidate, the best mean alone picks the luckiest move, not the
   best: measured, docs/bots.md).

Every candidate is played out on the same sampled deals with the same random
stream (common random numbers), so the comparison measures the moves, not the
luck of the samples. The ``budget`` is the number of playouts (candidates times
samples): the strength between greedy (budget 1 plays greedy's first choice) and
the strongest the server allows (:data:`MAX_BUDGET`). The answer is a function
of the view, the budget and the random stream of :func:`engine.bots.bot_rng`,
so it is deterministic for a seed and cannot depend on a hidden card.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from engine.bots import ranked_moves
from engine.cards import IS_RED_THREE, Card
from engine.errors import BadInput, Reason
from engine.games import game_of
from engine.mayi.state import AnyState, MayIState
from engine.mayi.successor import evolve as mayi_evolve
from engine.moves import Move
from engine.observation import hidden_cards
from engine.state import State, evolve

DEFAULT_BUDGET = 48  # playouts of one decision when the caller sets none
MAX_BUDGET = 500  # the most a caller may ask for (more is clamped): bounds a call's CPU time
CANDIDATES = 8  # moves compared at most
PER_KIND = 3  # best moves of each kind (meld, discard, take, ...) among the candidates
ROUNDS = 2  # Canasta family: a playout stops when the turn has gone round this many times
# standard errors a candidate must beat greedy's choice by (measured, docs/bots.md)
CAUTION = 1.0
MAX_PLIES = 1000  # a playout's safety stop
HAND_CREDIT = 0.5  # Canasta family, before the hand's end: share of a held card's value counted


def clamp_budget(budget: int | None) -> int:
    """The playouts a decision runs: the default for ``None``, at most :data:`MAX_BUDGET`.

    :raises BadInput: ``BAD_OPTION_VALUE`` for a budget below 1.
    """
    if budget is None:
        return DEFAULT_BUDGET
    if budget < 1:
        raise BadInput(Reason.BAD_OPTION_VALUE,
                       f"the bot budget must be at least 1 playout, not {budget}")
    return min(budget, MAX_BUDGET)


def expert_move(view: AnyState, rng: random.Random, budget: int = DEFAULT_BUDGET) -> Move:
    """The move of ``view.awaited`` the search finds best (see the module's docstring).

    ``view`` should be the seat's redacted state: the search only ever reads the
    hidden cards as a pool to deal again, but what it is handed is what it knows.
    """
    seat = view.awaited
    candidates = ranked_moves(view, min(CANDIDATES, budget), PER_KIND)
    if len(candidates) == 1:
        return candidates[0]
    values: list[list[float]] = [[] for _ in candidates]
    apply = game_of(view).apply
    for _ in range(budget // len(candidates)):
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
    ``seat`` knows (the module's docstring says how)."""
    pool = hidden_cards(view, seat)
    rng.shuffle(pool)
    players = len(view.hands)
    forced: list[list[Card]] = [[] for _ in range(players)]
    if isinstance(view, State):
        reds = [c for c in pool if IS_RED_THREE[c]]
        if reds:
            pool = [c for c in pool if not IS_RED_THREE[c]]
            for s in range(players):
                if s != seat and view.pending_red3[s] and reds and view.hands[s]:
                    forced[s].append(reds.pop())
            pool = reds + pool  # the rest into the stock first
    at = len(view.stock)
    stock = pool[:at]
    rng.shuffle(stock)
    hands: list[tuple[Card, ...]] = []
    for s, hand in enumerate(view.hands):
        if s == seat:
            hands.append(hand)
            continue
        take = len(hand) - len(forced[s])
        hands.append(tuple(sorted(forced[s] + pool[at:at + take])))
        at += take
    if isinstance(view, MayIState):
        return mayi_evolve(view, stock=tuple(stock), hands=tuple(hands))
    turn = view.turn
    if turn.seat != seat and turn.base_hand:
        # the turn's base hand is its hand now plus the (public) staged cards
        staged = Counter(turn.base_hand) - Counter(view.hands[turn.seat])
        turn = evolve(turn, base_hand=tuple(sorted(hands[turn.seat] + tuple(staged.elements()))))
    return evolve(view, stock=tuple(stock), hands=tuple(hands), turn=turn)


def playout(state: AnyState, seat: int, rng: random.Random) -> float:
    """Play greedy in every seat and :func:`evaluate` the position for ``seat``: in the
    Canasta family when the turn has gone round :data:`ROUNDS` times (or the hand
    ends), in May I? (short deals, fast moves) at the deal's end."""
    game = game_of(state)
    greedy = game.greedy_move
    apply = game.apply
    stop = MAX_PLIES if isinstance(state, MayIState) else ROUNDS * len(state.hands)
    turn_seat = state.turn.seat
    changes = plies = 0
    while state.result is None and plies < MAX_PLIES:
        if state.turn.seat != turn_seat:
            turn_seat = state.turn.seat
            changes += 1
            if changes >= stop:
                break
        state = apply(state, greedy(state, rng), None)
        plies += 1
    return evaluate(state, seat)


def evaluate(state: AnyState, seat: int) -> float:
    """How good ``state`` is for ``seat``: its side's points minus the others' mean.

    Canasta family: the hand's score once it is over; before, the points on the
    table plus :data:`HAND_CREDIT` of the value of the cards in hand (counted as a
    cost they would make the seat throw its best cards away; as nothing, the same
    for wild cards and fours). May I?: the other players' mean penalty points minus
    the seat's own.
    """
    rows = game_of(state).provisional_score(state)
    if isinstance(state, MayIState):
        own = 0.0
        others = 0.0
        for row in rows:
            if row.team == seat:
                own = float(row.total)
            else:
                others += row.total
        return others / (len(rows) - 1) - own
    team = state.rules.layout.seat_team[seat]
    over = state.result is not None
    mine = 0.0
    rest = 0.0
    for row in rows:
        value = row.total if over else row.total + (1 + HAND_CREDIT) * row.in_hand
        if row.team == team:
            mine = value
        else:
            rest += value
    return mine - rest / max(1, len(rows) - 1)


__all__ = ["DEFAULT_BUDGET", "MAX_BUDGET", "clamp_budget", "evaluate", "expert_move", "playout",
           "sample"]
