"""The legal-move cache is filled once, whole, even when threads race on one state.

The gRPC thread-pool server hands one cached state to concurrent calls. With the
interpreter switching threads every 10 µs, many threads ask for the legal moves of
the same fresh states at once; every answer and every state's cache must be exactly
the list a lone call computes (no duplicated or partial list), in both games.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from engine import Phase, apply, legal_moves, new_game
from engine.bots import random_move
from engine.mayi.state import AnyState, MayIState
from engine.mayi.successor import evolve as mayi_evolve
from engine.state import evolve

THREADS = 8


@contextmanager
def switching_every(seconds: float) -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(seconds)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def states(variant: str, players: int, count: int) -> list[AnyState]:
    rng = random.Random(variant)
    out: list[AnyState] = []
    seed = 0
    while len(out) < count:
        state = new_game(variant, players, seed=seed)
        seed += 1
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) and len(out) < count:
            out.append(state)
            state = apply(state, random_move(state, rng))
    return out


def fresh(state: AnyState) -> AnyState:
    """An equal state with an empty cache."""
    return mayi_evolve(state) if isinstance(state, MayIState) else evolve(state)


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("samba", 4), ("may_i", 4)])
def test_racing_threads_see_one_whole_list(variant: str, players: int) -> None:
    positions = states(variant, players, 300)
    expected = [legal_moves(fresh(s)) for s in positions]
    shared = [fresh(s) for s in positions]
    answers: list[list[list[object]]] = [[] for _ in range(THREADS)]
    start = threading.Barrier(THREADS)

    def work(k: int) -> None:
        start.wait()
        for s in shared:
            answers[k].append(list(legal_moves(s)))

    with switching_every(1e-5):
        threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for k in range(THREADS):
        assert answers[k] == expected
    for s, want in zip(shared, expected, strict=True):
        assert legal_moves(s) == want  # the cache holds the whole list, once
