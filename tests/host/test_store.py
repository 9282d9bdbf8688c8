"""The table file holds every host token, seat token and seed: it, its -wal and -shm files
and the directory the store makes are its user's alone, whatever the umask; and a file an
older host made opens, its tables whole."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import Iterator
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
