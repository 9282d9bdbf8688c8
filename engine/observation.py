"""What one seat may know of a state, as a state: the input of a bot that plays fair.

A seat sees its own hand and the table (CL-INFO-3, CL-INFO-6); the other hands,
the stock and its order, and the shuffle seed are hidden from it. The discard
pile is public history: each of its cards was shown when it was discarded
(CL-INFO-4, CL-INFO-5), so a player with a good memory knows it.

:func:`redact` keeps what the seat may know and lays the hidden cards out again
in one canonical way: sorted, the stock filled first, then the other hands in
seat order, each with its own size. Two states that differ only in where the
hidden cards lie (swapped between other hands and the stock, the stock
reordered) or in their seed redact to equal states, so whatever a bot computes
from the redacted state cannot depend on what its seat may not see. The
layout is not a guess at the real one: a bot that wants to sample deals
consistent with the seat's knowledge shuffles :func:`hidden_cards` itself.

>>> from engine.game import new_game
>>> a = new_game("classic", 4, seed=1)
>>> b = redact(a, 0)
>>> b.hands[0] == a.hands[0] and b.stock != a.stock and b.seed == 0
True
>>> sorted(hidden_cards(a, 0)) == sorted(hidden_cards(b, 0))
True
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import overload

from engine.cards import IS_RED_THREE, Card
from engine.games import game_of
from engine.mayi.state import AnyState, MayIState
from engine.mayi.successor import evolve as mayi_evolve
from engine.state import State, evolve


def hidden_cards(state: AnyState, seat: int) -> list[Card]:
    """The cards ``seat`` cannot see: the other hands and the stock (any order)."""
    cards = list(state.stock)
    for s, hand in enumerate(state.hands):
        if s != seat:
            cards += hand
    return cards


def _layout(state: AnyState, seat: int) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]:
    """The canonical stock and hands: the hidden cards sorted (red threes first, so that
    in the Canasta games they stay in the stock, where a real one may lie unseen)."""
    pool = sorted(hidden_cards(state, seat), key=lambda c: (not IS_RED_THREE[c], c))
    stock, hands = _deal(state, seat, pool)
    return tuple(stock), hands


@overload
def redact(state: State, seat: int) -> State: ...
@overload
def redact(state: MayIState, seat: int) -> MayIState: ...


def redact(state: AnyState, seat: int) -> AnyState:
    """``state`` as ``seat`` may know it (see the module's docstring)."""
    known: AnyState = game_of(state).redact(state, seat)
    return known


def canasta_redact(state: State, seat: int) -> State:
    """:func:`redact` of a Canasta-family state."""
    stock, hands = _layout(state, seat)
    return _canasta_with(state, stock, hands, seed=0)


def mayi_redact(state: MayIState, seat: int) -> MayIState:
    """:func:`redact` of a May I? state."""
    stock, hands = _layout(state, seat)
    return mayi_evolve(state, stock=stock, hands=hands, seed=0)


def _canasta_with(state: State, stock: tuple[Card, ...], hands: tuple[tuple[Card, ...], ...],
                  **changes: object) -> State:
    """``state`` with another stock and hands; the turn's base hand follows its seat's
    hand (the hand before this turn's staged melds: the new hand and the staged cards,
    which are public)."""
    turn = state.turn
    if turn.base_hand and hands[turn.seat] != state.hands[turn.seat]:
        staged = Counter(turn.base_hand) - Counter(state.hands[turn.seat])
        turn = evolve(turn, base_hand=tuple(sorted(hands[turn.seat] + tuple(staged.elements()))))
    return evolve(state, stock=stock, hands=hands, turn=turn, **changes)


def redeal(view: AnyState, seat: int, rng: random.Random) -> AnyState:
    """``view`` with the cards ``seat`` cannot see dealt again at random, consistently
    with what it knows: each other hand keeps its size, and in the Canasta games a red
    three lies only where one may lie unseen: in the stock or in the hand of a seat that
    has not yet begun a turn. The expert's samples."""
    dealt: AnyState = game_of(view).redeal(view, seat, rng)
    return dealt


def _deal(view: AnyState, seat: int, pool: list[Card]
          ) -> tuple[list[Card], tuple[tuple[Card, ...], ...]]:
    """The stock and hands from a pool of the hidden cards, in order: the stock's count
    first, then each other hand its size; ``seat`` keeps its own."""
    at = len(view.stock)
    stock = pool[:at]
    hands: list[tuple[Card, ...]] = []
    for s, hand in enumerate(view.hands):
        if s == seat:
            hands.append(hand)
            continue
        hands.append(tuple(sorted(pool[at:at + len(hand)])))
        at += len(hand)
    return stock, tuple(hands)


def canasta_redeal(view: State, seat: int, rng: random.Random) -> State:
    """:func:`redeal` of a Canasta-family state: a hidden red three may lie in the stock
    or in the hand of a seat that has not yet begun a turn (``pending_red3``, a public
    fact); every other hand laid its own at once (CL-R3-1, CL-R3-2). Each arrangement
    that keeps to this is as likely as any other."""
    pool = hidden_cards(view, seat)
    rng.shuffle(pool)
    reds = [c for c in pool if IS_RED_THREE[c]]
    if reds:
        others = [c for c in pool if not IS_RED_THREE[c]]
        # the places in _deal's order (the stock, then each other hand) a red three may take
        places = list(range(len(view.stock)))
        at = len(view.stock)
        for s, hand in enumerate(view.hands):
            if s != seat:
                if view.pending_red3[s]:
                    places += range(at, at + len(hand))
                at += len(hand)
        chosen = set(rng.sample(places, len(reds)))
        rest = iter(others)
        pool = [reds.pop() if i in chosen else next(rest) for i in range(len(pool))]
    stock, hands = _deal(view, seat, pool)
    return _canasta_with(view, tuple(stock), hands)


def mayi_redeal(view: MayIState, seat: int, rng: random.Random) -> MayIState:
    """:func:`redeal` of a May I? state."""
    pool = hidden_cards(view, seat)
    rng.shuffle(pool)
    stock, hands = _deal(view, seat, pool)
    rng.shuffle(stock)
    return mayi_evolve(view, stock=tuple(stock), hands=hands)


def answering_first(state: MayIState, seat: int) -> MayIState:
    """A May I? state in which ``seat``, a later seat of an open buy window, answers
    first: how a bot sees the window when it may answer out of turn
    (``buy_priority=first_call``)."""
    window = (seat, *(s for s in state.turn.window if s != seat))
    return mayi_evolve(state, turn=dataclasses.replace(state.turn, window=window))
