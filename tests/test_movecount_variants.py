"""Move-count ("perft") tables of Samba, Bolivia and Bolivia with sevens: recompute every
number of tests/data/movecount/{samba,bolivia,bolivia_sevens}.txt.

The tables are written by ``tests/movecount_variants.py`` in the format of
``tests/movecount_gen.py``. A difference means the legal-move generator or a
transition changed: if the change is intended, regenerate the tables and review the diff.
"""

from __future__ import annotations

import pytest

from engine import Phase, legal_moves
from engine.notation import export_position
from tests.movecount_gen import Entry, parse_table, rebuild, turn_count
from tests.movecount_variants import POSITIONS, PREFIX, path

TABLES = {v: parse_table(path(v).read_text()) for v in POSITIONS}
ENTRIES = [e for entries in TABLES.values() for e in entries]


@pytest.mark.parametrize("variant", list(POSITIONS))
def test_table_is_complete(variant: str) -> None:
    """Every position of the generator is in the variant's file, at least five of them,
    each citing the variant's rules."""
    entries = TABLES[variant]
    assert len(entries) >= 5
    assert [e.id for e in entries] == [p.id for p in POSITIONS[variant]]
    assert all(e.rules.startswith(PREFIX[variant]) for e in entries)
    assert all(rebuild(e).rules.variant == variant for e in entries)


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
