"""Twins of a position: the same for one seat, different in what that seat cannot see.

A twin deals the cards hidden from a seat (the other hands and the stock; for a
spectator, seat -1, every hand) out again at random, which exchanges cards
between those zones and reorders the stock, every count kept. In the Canasta
games a red three goes only where play may leave one unseen: the stock or the
hand of a seat yet to begin a turn (which lays it then). The ``keep_top`` cards
on top of the stock (the ones a tested move will show its seat) stay. At a hand's end the hands are scored in public, so
only the stock is reordered. Used by the leak test of the service and the
fair-bot property test of the engine.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import Phase
from engine.cards import IS_RED_THREE
from engine.mayi.state import AnyState, MayIState
from engine.mayi.successor import evolve as mayi_evolve
from engine.state import evolve


def twin(state: AnyState, seat: int, keep_top: int, rng: random.Random) -> AnyState:
    """``state`` with the cards hidden from ``seat`` (-1: a spectator) dealt out again."""
    over = state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    canasta = not isinstance(state, MayIState)
    stock = list(state.stock)
    hands = [list(h) for h in state.hands]
    # where a hidden card lies: ("stock", i) or (seat, i); at the hand's end the hands are
    # scored in public, so only the stock's order is hidden then
    spots: list[tuple[Any, int]] = [("stock", i) for i in range(len(stock) - keep_top)]
    if not over:
        spots += [(s, i) for s, h in enumerate(hands) if s != seat for i in range(len(h))]

    def at(spot: tuple[Any, int]) -> list[int]:
        return stock if spot[0] == "stock" else hands[spot[0]]

    cards = [at(p)[p[1]] for p in spots]
    rng.shuffle(cards)
    if canasta:  # a red three lies in the stock or with a seat yet to begin a turn
        reds = [c for c in cards if IS_RED_THREE[c]]
        room = [i for i, p in enumerate(spots) if p[0] == "stock" or state.pending_red3[p[0]]]
        chosen = set(rng.sample(room, len(reds)))
        rest = iter(c for c in cards if not IS_RED_THREE[c])
        cards = [reds.pop() if i in chosen else next(rest) for i in range(len(cards))]
    for p, c in zip(spots, cards, strict=True):
        at(p)[p[1]] = c
    new_hands = tuple(tuple(sorted(h)) for h in hands)
    if not canasta:
        return mayi_evolve(state, stock=tuple(stock), hands=new_hands)
    turn = state.turn
    if turn.base_hand and turn.seat != seat:  # the hand before this turn's staged melds
        staged = Counter(turn.base_hand) - Counter(state.hands[turn.seat])
        turn = evolve(turn, base_hand=tuple(sorted(new_hands[turn.seat]
                                                   + tuple(staged.elements()))))
    return evolve(state, stock=tuple(stock), hands=new_hands, turn=turn)
