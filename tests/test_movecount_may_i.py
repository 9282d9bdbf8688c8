"""The May I? move-count table (``tests/data/movecount/may_i.txt``) still holds.

Each position is rebuilt from what the file says and its numbers are recounted; a
change in the legal-move generator shows up here as a changed count. After an
intended change, rebuild the table with ``python -m tests.movecount_may_i_gen``.
"""

from __future__ import annotations

import pytest

from tests.movecount_gen import Entry, count, parse_table
from tests.movecount_may_i_gen import DATA, POSITIONS

TABLE = parse_table(DATA.read_text(), "may_i")


def test_table_lists_every_position() -> None:
    """The checked-in table has one block per position of the generator, at least five."""
    assert [e.id for e in TABLE] == [e.id for e in POSITIONS]
    assert len(TABLE) >= 5


@pytest.mark.parametrize("entry", TABLE, ids=[e.id for e in TABLE])
def test_move_counts(entry: Entry) -> None:
    """MI-TURN-2, MI-CON-*, MI-BUY-*, MI-OFF-*: the legal moves at the root and the distinct
    end-of-turn positions are what the table says."""
    assert count(entry) == (entry.legal, entry.turn)
