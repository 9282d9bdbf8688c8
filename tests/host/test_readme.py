"""examples/host/README.md names every route the host serves, so a studio writing its own
player client (or a proxy in front of the host) finds each one there."""

from __future__ import annotations

import re
from pathlib import Path

from canasta_client import AsyncCanastaClient
from starlette.routing import Route, WebSocketRoute

from examples.host.app import create_app
from examples.host.store import SqliteStore

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
