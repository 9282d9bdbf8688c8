"""The reference host's index page in a browser (examples/host/static/index.js, run by
host_index.mjs): creating a table, and what it says when the rules service is away."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.host.hosts import hosting
from tests.service.servers import running
from tests.web.test_web_table import _in_browser


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_the_index_page_creates_a_table_and_says_when_it_cannot(tmp_path: Path) -> None:
    """With the rules service up, the page offers every game, four seats for classic, and
    creating a table shows its id and a join link for the person's seat (seat 0) beside the
    bots. With it away, /api/variants answers 502 UNAVAILABLE: the page says so and why, and
    its button is off (it stayed blank, reading the refusal as the list of games)."""
    with running() as rules, \
            hosting(tmp_path / "up.db", rules.grpc_target) as up, \
            hosting(tmp_path / "away.db", f"127.0.0.1:{_closed_port()}") as away:
        base = up.base
        result, done = _in_browser("host_index.mjs", base, away.base, timeout=120)
    assert result["problems"] == [] and done.returncode == 0, result
    before, after = result["up"]["before"], result["up"]["after"]
    assert {"classic", "samba", "bolivia", "bolivia_sevens", "may_i"} <= set(before["games"])
    assert before["seats"] == 4 and before["submit"] and before["error"] == "", before
    assert after["error"] == "" and len(after["gameId"]) == 36, after
    assert after["links"][0].startswith(f"Seat 0: {base}/play/{after['gameId']}/0#"), after
    assert after["links"][1:] == ["Seat 1: bot (random)", "Seat 2: bot (greedy)",
                                  "Seat 3: bot (greedy)"], after
    shown = result["away"]
    assert shown["error"].startswith("UNAVAILABLE: "), shown
    assert shown["error"].endswith(" Reload the page to try again."), shown
    assert shown["games"] == [] and not shown["submit"], shown
    # a 200 whose JSON is not the list of games: said, nothing offered (it threw, blank)
    odd = result["odd"]
    assert odd["error"].startswith("the host answered no list of games"), odd
    assert odd["games"] == [] and not odd["submit"], odd
