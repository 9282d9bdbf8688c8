"""Bots: legal, deterministic for a seed, never stuck, in every registered game."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine import Phase, apply, legal_moves, new_game, next_deal
from engine.bots import BOTS, LEVELS, greedy_move, random_move, suggest_move
from engine.errors import BadInput, Reason, RuleViolation
from engine.moves import Undo
from engine.variants import VARIANTS

GAMES = [(v, p) for v, p in [("classic", 2), ("classic", 3), ("classic", 4), ("classic", 5),
                             ("classic", 6), ("samba", 4), ("bolivia", 4),
                             ("bolivia_sevens", 4), ("may_i", 3), ("may_i", 5)]
         if v in VARIANTS]
IDS = [f"{v}-{p}" for v, p in GAMES]
# the expert, slower at its default budget, plays at small budgets in tests/test_expert.py
CHEAP = tuple(level for level in LEVELS if level != "expert")


@pytest.mark.parametrize("variant,players", GAMES, ids=IDS)
@pytest.mark.parametrize("level", CHEAP)
def test_bots_play_whole_hands_with_legal_moves(variant: str, players: int, level: str) -> None:
    bot = BOTS[level]
    for seed in range(3):
        state = new_game(variant, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                break
            move = bot(state, rng)
            assert move in legal_moves(state)
            if level == "greedy":
                assert not isinstance(move, Undo), "greedy never stages into a dead end"
            state = apply(state, move)
        assert state.phase in (Phase.HAND_OVER, Phase.GAME_OVER), f"seed {seed}: no end"


@pytest.mark.parametrize("variant,players", GAMES, ids=IDS)
def test_suggestions_are_deterministic_for_a_seed(variant: str, players: int) -> None:
    state = new_game(variant, players, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        for level in CHEAP:
            first = suggest_move(state, level, seed=9)
            assert suggest_move(state, level, seed=9) == first
            assert first in legal_moves(state)
        state = apply(state, random_move(state, rng))


def test_suggest_move_refusals() -> None:
    state = new_game("classic", 2, seed=1)
    with pytest.raises(BadInput) as bad:
        suggest_move(state, "genius")
    assert bad.value.reason is Reason.BAD_OPTION_VALUE
    rng = random.Random(1)
    while state.phase is not Phase.HAND_OVER:
        state = apply(state, greedy_move(state, rng))
    with pytest.raises(RuleViolation) as over:
        suggest_move(state)
    assert over.value.reason is Reason.HAND_OVER


@dataclass(frozen=True)
class _Future:
    """A move kind a later variant could add."""

    def __str__(self) -> str:
        return "future"


def test_greedy_copes_with_move_kinds_it_does_not_know(monkeypatch: pytest.MonkeyPatch,
                                                       request: pytest.FixtureRequest) -> None:
    import engine.bots

    if engine.BUILD == "compiled":
        # compiled calls do not go through the patched module global: play it on the source
        root = Path(__file__).resolve().parent.parent
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", request.node.nodeid],
            cwd=root, env={**os.environ, "CANASTA_ENGINE": "pure", "PYTHONPATH": str(root)},
            capture_output=True, text=True, timeout=300)
        # 0: it ran and passed (1: it failed, 5: no such test)
        assert done.returncode == 0, done.stdout + done.stderr
        return
    state = new_game("classic", 4, seed=2)
    known = legal_moves(state)
    expected = greedy_move(state, random.Random(1))
    monkeypatch.setattr(engine.bots, "canasta_legal_moves", lambda s: [_Future()])
    assert str(greedy_move(state, random.Random(1))) == "future"
    # an unknown kind scores neutral (0), below the draw that a known move offers at least
    monkeypatch.setattr(engine.bots, "canasta_legal_moves", lambda s: [_Future(), *known])
    assert greedy_move(state, random.Random(1)) == expected


def test_greedy_beats_random_in_a_few_matches() -> None:
    """A quick check of the heuristic (bench/bots_bench.py runs 200 matches per game)."""
    wins = 0
    for seed in range(8):
        state = new_game("classic", 2, seed=seed)
        rng = random.Random(seed)
        while True:
            while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
                bot = greedy_move if state.awaited == 0 else random_move
                state = apply(state, bot(state, rng))
            if state.phase is Phase.GAME_OVER:
                break
            state = next_deal(state)
        assert state.result is not None
        wins += state.result.winner == 0
    assert wins >= 7
