"""A rules service on port 0 for this worker's host tests (tests/service/servers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.service.servers import Running, running


@pytest.fixture(scope="session")
def rules() -> Iterator[Running]:
    with running() as server:
        yield server
