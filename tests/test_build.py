"""The compiled engine (mypyc, engine/_native) plays exactly as the plain Python one.

``make setup`` compiles the engine and ``engine/build.py`` chooses the build at import;
the rest of the suite runs whichever build is in use (the compiled one under
``make test``). Here the same seeded random games of every game and player count
are played by this process and by a ``CANASTA_ENGINE=pure`` one, and every legal list,
move and position must agree.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import subprocess
import sys
import typing
import warnings
from pathlib import Path

import pytest

import engine
from engine import build

ROOT = Path(__file__).resolve().parent.parent

# Plays seeded random games and prints one digest of every legal list, chosen move,
# exported position, view and score on the way (run here and in a pure subprocess).
PLAYOUT = """
import hashlib, random
from engine import Phase, apply, legal_moves, new_game, next_deal
from engine.bots import greedy_move, random_move
from engine.notation import export_position
from engine.views import provisional_score, seat_views

def playout(variant, players, seed, moves):
    rng = random.Random(seed)
    h = hashlib.sha256()
    state = new_game(variant, players, seed=seed)
    for ply in range(moves):
        if state.phase is Phase.GAME_OVER:
            break
        if state.phase is Phase.HAND_OVER:
            h.update(repr(provisional_score(state)).encode())
            state = next_deal(state)
            continue
        listed = legal_moves(state)
        bot = greedy_move if ply % 7 == 0 else random_move
        move = bot(state, rng)
        h.update(("|".join(map(str, listed)) + ">" + str(move)).encode())
        if ply % 25 == 0:
            h.update(export_position(state).encode())
            h.update(repr(seat_views(state)).encode())
        state = apply(state, move)
    h.update(export_position(state).encode())
    return h.hexdigest()

GAMES = [("classic", p) for p in (2, 3, 4, 5, 6)] + [
    ("samba", 4), ("bolivia", 4), ("bolivia_sevens", 4), ("may_i", 3), ("may_i", 4),
    ("may_i", 5)]
print(hashlib.sha256("".join(
    playout(v, p, seed, 400) for v, p in GAMES for seed in (1, 2)).encode()).hexdigest())
"""


def _digest_here() -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(PLAYOUT, "playout", "exec"), {})
    return out.getvalue().strip()


@pytest.mark.skipif(engine.BUILD != "compiled", reason="the compiled engine is not built "
                    "(NATIVE=0, or its sources changed since make setup)")
def test_compiled_and_pure_engines_play_the_same_games() -> None:
    env = {**os.environ, "CANASTA_ENGINE": "pure", "PYTHONPATH": str(ROOT)}
    pure = subprocess.run([sys.executable, "-c", PLAYOUT], env=env, cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=600).stdout.strip()
    assert len(pure) == 64
    assert _digest_here() == pure


def test_compiled_modules_are_the_ones_imported() -> None:
    """Either every compiled module comes from engine/_native, or none does (a mix
    would hold two copies of the engine's classes)."""
    from engine import legal, melds, state
    from engine.mayi import legal as mayi_legal
    from engine.mayi import table

    native = str(build.NATIVE)
    modules = (legal, melds, mayi_legal, state, table)
    compiled = [m for m in modules if native in str(m.__file__)]
    assert len(compiled) == (len(modules) if engine.BUILD == "compiled" else 0)


def test_a_build_from_other_sources_is_not_used(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    stamp = tmp_path / "SOURCES"
    monkeypatch.setattr(build, "STAMP", stamp)
    monkeypatch.delenv("CANASTA_ENGINE", raising=False)
    assert build._choose() == "pure"  # nothing compiled
    stamp.write_text(hashlib.sha256(b"other sources").hexdigest() + "\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert build._choose() == "pure"
    assert any("other sources" in str(w.message) for w in caught)
    stamp.write_text(build.digest() + "\n")
    assert build._choose() == "compiled"
    monkeypatch.setenv("CANASTA_ENGINE", "pure")
    assert build._choose() == "pure"


@pytest.mark.parametrize("value", [" pure ", "pure\n", "Pure"])
def test_the_engine_reads_pure_as_the_settings_do(value: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The service's settings accept ``CANASTA_ENGINE`` stripped and in any case; the engine
    took `` pure `` for another value and ran the compiled build."""
    stamp = tmp_path / "SOURCES"
    stamp.write_text(build.digest() + "\n")
    monkeypatch.setattr(build, "STAMP", stamp)
    monkeypatch.setenv("CANASTA_ENGINE", value)
    assert build._choose() == "pure"


def test_the_digest_covers_every_engine_source() -> None:
    """An edit to any engine module, compiled or not, makes the build stale."""
    sources = build._sources()
    assert {"state.py", "legal.py", "mayi/table.py", "mayi/legal.py"} <= {
        p.relative_to(build.PACKAGE).as_posix() for p in sources}
    assert not set(map(str, build.compiled_sources())) & {
        str(build.PACKAGE / u) for u in build.UNCOMPILED}


def test_serialized_classes_keep_their_full_annotations() -> None:
    """The snapshot codec reads the state classes' field types: compiled, a class keeps an
    annotation only when it is quoted (any other is erased to its runtime class, ``tuple``),
    so every field annotation of them is a string, and resolves to a full type."""
    from engine.cards import Card
    from engine.mayi.state import MayIResult, MayIState, MayITurn
    from engine.mayi.table import TableMeld
    from engine.state import HandResult, MeldPile, SideResult, State, Turn

    for cls in (State, Turn, MeldPile, SideResult, HandResult, MayIState, MayITurn,
                MayIResult, TableMeld):
        erased = {k: v for k, v in cls.__annotations__.items() if not isinstance(v, str)}
        assert not erased, (cls.__name__, erased)
        hints = typing.get_type_hints(cls)
        assert set(cls.__annotations__) <= set(hints)
    assert typing.get_type_hints(State)["hands"] == tuple[tuple[Card, ...], ...]


def test_no_engine_module_asks_which_game_a_state_is() -> None:
    """Games are peers (engine/games.py): code shared by the games calls a game's methods
    and never tests a state's type (``isinstance(x, State)`` or ``MayIState``)."""
    import re

    test = re.compile(r"isinstance\([^)]*\b(State|MayIState)\b")
    found = [f"{p.relative_to(build.PACKAGE)}:{n}"
             for p in build._sources()
             for n, line in enumerate(p.read_text().splitlines(), 1) if test.search(line)]
    assert not found, found
