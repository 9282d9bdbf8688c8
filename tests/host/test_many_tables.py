"""100 tables played at once by the host's bots: every one finishes its game, and every
record replays (engine.records) to the final scores of the host's snapshot. The game ends
at 1 point, so after its first hand (or the next ones the host deals, should no side
score): the moves per second are those of about 100 hands."""

from __future__ import annotations

import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.host.hosts import check_record, hosting, stored
from tests.service.servers import Running

TABLES = 100


def test_a_hundred_tables_of_bots(rules: Running, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        started = time.perf_counter()
        with ThreadPoolExecutor(8) as pool:
            created = list(pool.map(
                lambda n: host.create("classic", 2, {0: "greedy", 1: "greedy"},
                                      {"target_score": 1}), range(TABLES)))
        game_ids = [c["game_id"] for c in created]
        assert len(set(game_ids)) == TABLES
        assert all(s["link"] is None for c in created for s in c["seats"])  # bots alone
        deadline = time.monotonic() + 240
        with sqlite3.connect(db) as watch:
            while watch.execute("SELECT COUNT(*) FROM tables WHERE game_over = 0"
                                ).fetchone()[0]:
                assert time.monotonic() < deadline, "the bots' tables did not finish"
                time.sleep(0.25)
        seconds = time.perf_counter() - started
        tables = [stored(db, game_id) for game_id in game_ids]
        moves = sum(t.seq for t in tables)
        print(f"\n{TABLES} tables, {moves} moves in {seconds:.1f} s: "
              f"{moves / seconds:.0f} moves/s (SuggestMove + ApplyMove + commit each)")
        assert all(t.game_over and t.hand_over and t.seq > 10 for t in tables)
        for table in tables:
            check_record(host.client, table)
