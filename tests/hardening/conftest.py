"""Fixtures for the hardening tests: one in-process server pair per worker and a pool of
real positions sealed with its key (tests/service/servers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hardening.pool import Position, sealed
from tests.service.servers import Running, running


@pytest.fixture(scope="session")
def server() -> Iterator[Running]:
    with running() as s:
        yield s


@pytest.fixture(scope="session")
def pool(server: Running) -> list[Position]:
    return sealed(server.app.core.sealer)
