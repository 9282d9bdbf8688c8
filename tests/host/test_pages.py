"""What the host serves of its pages and of clients/web: the pages with their
Content-Security-Policy, the modules they import, and nothing else."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from examples.host.app import STATIC, WEB
from tests.host.hosts import hosting
from tests.service.servers import Running


@pytest.fixture
def client(rules: Running, tmp_path: Path) -> Iterator[httpx.Client]:
    with hosting(tmp_path / "tables.db", rules.grpc_target) as host, \
            httpx.Client(base_url=host.base, timeout=20) as client:
        yield client


def _loaded() -> set[str]:
    """The paths the host's pages load ("/static/seat.js") and their scripts import
    ("/web/moves.js"), read from the pages and the scripts."""
    pages = {p for page in STATIC.glob("*.html")
             for p in re.findall(r'(?:src|href)="(/[^"]+)"', page.read_text())}
    imports = {p for script in STATIC.glob("*.js")
               for p in re.findall(r'^import .* from "(/[^"]+)";$', script.read_text(), re.M)}
    return pages | imports


@pytest.mark.parametrize("path", ["/", "/play/g/0"])
def test_a_page_connects_to_its_own_origin_alone(client: httpx.Client, path: str) -> None:
    """A page's ``connect-src`` was ``'self' ws: wss:``, which lets a script on it open a
    WebSocket to any host: one injected, were there ever such a flaw, could send the seat's
    token (the page's fragment) anywhere. ``'self'`` alone takes the page's own origin's
    ``ws:`` (``wss:`` behind TLS) too, by CSP Level 3, which the seat page's socket uses."""
    answer = client.get(path)
    assert answer.status_code == 200
    policy = dict(d.strip().partition(" ")[::2]
                  for d in answer.headers["content-security-policy"].split(";"))
    assert policy["connect-src"] == "'self'", policy
    assert policy["default-src"] == "'self'", policy


def test_the_host_serves_what_its_pages_load_alone(client: httpx.Client) -> None:
    """The host mounted all of clients/web at /web, and all of its static folder at
    /static: the standalone table's page and its table.js, and the host's own pages, were
    served from the host's origin without the pages' policy. What the host's pages load
    answers; any other file of either folder is a 404."""
    loaded = _loaded()
    assert {"/static/seat.js", "/web/moves.js", "/web/options.js"} <= loaded, loaded
    folders = {"/static": STATIC, "/web": WEB}
    for prefix, folder in folders.items():
        for file in folder.iterdir():
            path = f"{prefix}/{file.name}"
            answer = client.get(path)
            if path in loaded:
                assert answer.status_code == 200 and answer.content == file.read_bytes(), path
            else:
                assert answer.status_code == 404, path
    assert {p.partition("/")[2].partition("/")[0] for p in loaded} == {"static", "web"}
    assert client.get("/web/").status_code == 404
