"""The table file holds every host token, seat token and seed: it, its -wal and -shm files
and the directory the store makes are its user's alone, whatever the umask; and a file an
older host made opens, its tables whole."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from examples.host.store import SqliteStore, Table

TABLE = Table("g-1", "classic", 2, 3, b"sealed", "ct1.host", ("ct1.s0", "ct1.s1"),
              {1: "greedy"}, "record\n", awaited=1)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The usual 022, under which a file is made world-readable unless asked otherwise."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_printed_table_shows_no_credential_and_no_seed() -> None:
    """A studio's log line (``log.info("%s", table)``), a failed assertion or a traceback
    that shows locals prints a Table: the dataclass's repr printed the host token, every
    seat token and the record, whose ``seed:`` line deals every hand."""
    table = replace(TABLE, host_token="ct1.host.k1.HOST-MAC",
                    seat_tokens=("ct1.s0.k1.SEAT0-MAC", "ct1.s1.k1.SEAT1-MAC"),
                    previous_tokens=("ct1.s0.k0.OLD0-MAC", "ct1.s1.k0.OLD1-MAC"),
                    record="variant: classic\nseed: 8675309\nhand 0\n")
    for text in (repr(table), str(table), f"{table!r}", repr([table])):
        assert "MAC" not in text and "8675309" not in text, text
        assert "g-1" in text and "awaited=1" in text  # what is no secret still shows


def test_the_table_file_is_its_users_alone(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    store = SqliteStore(db)
    asyncio.run(store.create(TABLE))  # a write: the -wal and -shm files exist now
    files = [db, db.with_name("tables.db-wal"), db.with_name("tables.db-shm")]
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    store.close()
    # a directory the store makes is its user's too
    inner = tmp_path / "host" / "tables.db"
    SqliteStore(inner).close()
    assert (mode(inner.parent), mode(inner)) == (0o700, 0o600)


def test_an_older_hosts_file_opens(tmp_path: Path) -> None:
    """A file from before the host kept the seat tokens a rotation replaced (and made it
    world-readable): its table loads as it was, with none replaced, and it is made 0600."""
    db = tmp_path / "tables.db"
    with sqlite3.connect(db) as old:
        old.execute("""CREATE TABLE tables (game_id TEXT PRIMARY KEY, variant TEXT NOT NULL,
            players INTEGER NOT NULL, seq INTEGER NOT NULL, snapshot BLOB NOT NULL,
            host_token TEXT NOT NULL, seat_tokens TEXT NOT NULL, bots TEXT NOT NULL,
            record TEXT NOT NULL, awaited INTEGER NOT NULL, hand_over INTEGER NOT NULL,
            game_over INTEGER NOT NULL)""")
        old.execute("INSERT INTO tables VALUES ('g-1', 'classic', 2, 3, x'7365616c6564',"
                    " 'ct1.host', '[\"ct1.s0\", \"ct1.s1\"]', '{\"1\": \"greedy\"}',"
                    " 'record\n', 1, 0, 0)")
    old.close()
    assert mode(db) == 0o644
    store = SqliteStore(db)
    assert asyncio.run(store.load("g-1")) == TABLE
    store.close()
    assert mode(db) == 0o600
