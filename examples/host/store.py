"""Where the host keeps its tables: the only state it has, so a restart loses nothing.

:class:`Store` is the interface the rest of the host uses; :class:`SqliteStore` is the
embedded one. A studio puts PostgreSQL (or anything with an atomic conditional update)
behind the same four methods.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Table:
    """One game as stored: the sealed snapshot with its ``(game_id, seq)``, the
    credentials (never sent to a player but each their own seat token), the bots, the
    record kept so far (docs/records.md) and what the host needs without a call.
    ``previous_tokens`` are the seat tokens a key rotation replaced (empty before one):
    the ones older join links carry. Its repr leaves out the credentials and the record
    (whose ``seed:`` deals every hand), so a log line or a traceback that prints a table
    shows neither."""

    game_id: str
    variant: str
    players: int
    seq: int
    snapshot: bytes
    host_token: str = field(repr=False)
    seat_tokens: tuple[str, ...] = field(repr=False)
    bots: dict[int, str] = field(default_factory=dict)  # seat -> level
    record: str = field(default="", repr=False)
    awaited: int = 0
    hand_over: bool = False
    game_over: bool = False
    previous_tokens: tuple[str, ...] = field(default=(), repr=False)

    @property
    def bots_only(self) -> bool:
        """Whether bots play every seat: no person sits at the table to deal its next
        hand, so the host deals it (:class:`~examples.host.bots.Bots`)."""
        return all(seat in self.bots for seat in range(self.players))

    @property
    def options(self) -> dict[str, str]:
        """The rule options the table was dealt with that differ from the game's defaults,
        as its record's ``options:`` line names them (docs/records.md: the service's names,
        an alias under its current one; ``-`` for none). May I? splits its parts by ``;``, as
        a custom schedule holds commas: a line with no ``;`` is split by ``,`` only where
        every part is ``name=value`` (``schedule=ss,sr`` alone is one), as the engine reads it
        (engine/notation_lines.py)."""
        line = next((line for line in self.record.splitlines()
                     if line.startswith("options: ")), "options: -")
        text = line.removeprefix("options: ").strip()
        if text == "-":
            return {}
        parts = text.split(";")
        if len(parts) == 1 and all("=" in part for part in text.split(",")):
            parts = text.split(",")
        return dict(part.strip().partition("=")[::2] for part in parts if part.strip())


class Store(Protocol):
    """The host's storage. ``commit`` is the compare-and-set that stops replays and forks:
    it lands only on the row still at ``expected_seq``."""

    async def create(self, table: Table) -> None:
        """Store a new table (its deal, seq 0)."""
        ...

    async def load(self, game_id: str) -> Table | None:
        """The table as last committed, or ``None``."""
        ...

    async def game_ids(self) -> list[str]:
        """Every stored table, oldest first."""
        ...

    async def commit(self, table: Table, expected_seq: int) -> bool:
        """Write ``table`` (its new snapshot, seq, record, credentials, ...) if the stored
        row is still at ``expected_seq``; ``False`` if another commit landed first (nothing
        is written)."""
        ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    game_id     TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    players     INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    snapshot    BLOB NOT NULL,
    host_token  TEXT NOT NULL,
    seat_tokens TEXT NOT NULL,   -- JSON list, index = seat
    bots        TEXT NOT NULL,   -- JSON object, seat -> level
    record      TEXT NOT NULL,
    awaited     INTEGER NOT NULL,
    hand_over   INTEGER NOT NULL,
    game_over   INTEGER NOT NULL,
    previous_tokens TEXT NOT NULL DEFAULT '[]'  -- JSON list, index = seat
)
"""


def private_file(path: Path) -> None:
    """Make ``path`` (and its directory, if missing) readable by this user alone before
    SQLite opens it: it holds every credential and seed, and SQLite gives the -wal and
    -shm files the database file's mode."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)  # a file an older host made world-readable


class SqliteStore:
    """:class:`Store` in one SQLite file (WAL, autocommit). Each statement is one short
    transaction, run inline: sub-millisecond, so not worth a thread hop."""

    def __init__(self, path: str | Path) -> None:
        private_file(Path(path))
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.execute(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            if "previous_tokens" not in columns:  # a file an older host made
                self._db.execute("ALTER TABLE tables ADD COLUMN previous_tokens"
                                 " TEXT NOT NULL DEFAULT '[]'")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    async def create(self, table: Table) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (table.game_id, table.variant, table.players, table.seq, table.snapshot,
                 table.host_token, json.dumps(list(table.seat_tokens)),
                 json.dumps({str(s): lvl for s, lvl in table.bots.items()}), table.record,
                 table.awaited, int(table.hand_over), int(table.game_over),
                 json.dumps(list(table.previous_tokens))))

    async def load(self, game_id: str) -> Table | None:
        with self._lock:
            row = self._db.execute(
                "SELECT game_id, variant, players, seq, snapshot, host_token, seat_tokens,"
                " bots, record, awaited, hand_over, game_over, previous_tokens FROM tables"
                " WHERE game_id=?",
                (game_id,)).fetchone()
        if row is None:
            return None
        return Table(row[0], row[1], row[2], row[3], bytes(row[4]), row[5],
                     tuple(json.loads(row[6])),
                     {int(s): lvl for s, lvl in json.loads(row[7]).items()},
                     row[8], row[9], bool(row[10]), bool(row[11]), tuple(json.loads(row[12])))

    async def game_ids(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT game_id FROM tables ORDER BY rowid").fetchall()
        return [r[0] for r in rows]

    async def commit(self, table: Table, expected_seq: int) -> bool:
        with self._lock:
            cur = self._db.execute(
                "UPDATE tables SET seq=?, snapshot=?, record=?, awaited=?, hand_over=?,"
                " game_over=?, host_token=?, seat_tokens=?, previous_tokens=?"
                " WHERE game_id=? AND seq=?",
                (table.seq, table.snapshot, table.record, table.awaited,
                 int(table.hand_over), int(table.game_over), table.host_token,
                 json.dumps(list(table.seat_tokens)), json.dumps(list(table.previous_tokens)),
                 table.game_id, expected_seq))
            return cur.rowcount == 1
