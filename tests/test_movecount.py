"""The move-count ("perft") table: recompute every number of tests/data/movecount/classic.txt.

The table is written by ``tests/movecount_gen.py`` (see its docstring for what ``legal``
and ``turn`` count). A difference means the legal-move generator or a transition
changed: if the change is intended, regenerate the table and review the diff.
"""

from __future__ import annotations

import pytest

from engine import Phase, legal_moves
from engine.notation import export_position
from tests.movecount_gen import DATA, POSITIONS, Entry, parse_table, rebuild, turn_count

ENTRIES = parse_table(DATA.read_text())


def test_table_is_complete() -> None:
    """Every position of the generator is in the file, and at least 12 of them."""
    assert len(ENTRIES) >= 12
    assert [e.id for e in ENTRIES] == [p.id for p in POSITIONS]
    assert len({e.id for e in ENTRIES}) == len(ENTRIES)
    assert {e.players for e in ENTRIES if not e.position} >= {2, 3, 4, 5, 6}
    assert sum(1 for e in ENTRIES if e.position) >= 4
    assert all(e.rules.startswith("CL-") for e in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_move_counts(entry: Entry) -> None:
    state = rebuild(entry)
    assert state.phase in (Phase.DRAW, Phase.DRAW_EXHAUSTED, Phase.MELD)
    assert state.awaited == state.turn.seat
    assert len(legal_moves(state)) == entry.legal, "legal"
    assert turn_count(state) == entry.turn, "turn"


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.position],
                         ids=[e.id for e in ENTRIES if e.position])
def test_written_positions_are_stable(entry: Entry) -> None:
    """A hand-written position (with ``*`` fills) imports to the same state every time."""
    assert export_position(rebuild(entry)) == export_position(rebuild(entry))
