"""examples/host/README.md names every route the host serves, so a studio writing its own
player client (or a proxy in front of the host) finds each one there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from canasta_client import AsyncCanastaClient
from starlette.routing import Route, WebSocketRoute

from examples.host.app import create_app
from examples.host.store import SqliteStore
from tests.host.hosts import check_record, hosting, stored
from tests.service.servers import Running

README = Path(__file__).resolve().parents[2] / "examples" / "host" / "README.md"
# The README writes a route's parameters in capitals: /play/GAME/SEAT
PARAMETERS = {"game_id": "GAME", "seat": "SEAT"}


def _unused() -> AsyncCanastaClient:
    raise AssertionError("no route is called here")


def test_every_route_of_the_host_is_in_its_readme(tmp_path: Path) -> None:
    app = create_app(SqliteStore(tmp_path / "tables.db"), _unused)
    paths = [re.sub(r"\{(\w+)(:\w+)?\}", lambda m: PARAMETERS[m[1]], r.path)
             for r in app.routes if isinstance(r, Route | WebSocketRoute) and r.path != "/"]
    text = README.read_text()
    # the whole path: "/api/tables" is not named by "/api/tables/GAME" alone
    named = [p for p in paths if re.search(rf"(?<![\w/]){re.escape(p)}(?![\w/])", text)]
    assert paths and named == paths


def test_the_readmes_whole_record_command_replays(rules: Running, tmp_path: Path) -> None:
    """The README's command that gets a table's whole record from the store (no route serves
    it) prints the record of the game as the host played it, and it replays to the host's
    final scores; run as written on the test's store and rules service, named as the host
    reads them (CANASTA_HOST_DB, CANASTA_HOST_RULES), in place of make host's: the test
    rewrote the addresses in its text, so a command that could reach no other store passed."""
    script = re.search(r"<<'EOF' \| [^\n]*\n(.*?)\nEOF\n", README.read_text(), re.S)
    assert script, "the README's whole-record command"
    env = {**os.environ, "CANASTA_HOST_DB": str(tmp_path / "tables.db"),
           "CANASTA_HOST_RULES": rules.grpc_target}
    with hosting(tmp_path / "tables.db", rules.grpc_target) as host:
        game_id = host.create("classic", 2, {0: "greedy", 1: "greedy"},
                              {"target_score": 1})["game_id"]
        deadline = time.monotonic() + 120
        while not host.status(game_id)["game_over"]:
            assert time.monotonic() < deadline, "the bots did not finish their game"
            time.sleep(0.1)
        done = subprocess.run([sys.executable, "-", game_id], input=script[1], text=True,
                              capture_output=True, timeout=60, check=True,
                              cwd=README.parents[2], env=env)
        assert done.stdout == check_record(host.client, stored(tmp_path / "tables.db", game_id))
