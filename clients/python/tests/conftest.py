"""The live server under test: ``CANASTA_GRPC_TARGET`` (set by ``make sdk-test``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from canasta_client import CanastaClient


@pytest.fixture(scope="session")
def target() -> str:
    value = os.environ.get("CANASTA_GRPC_TARGET")
    if not value:
        pytest.fail("set CANASTA_GRPC_TARGET=host:port of a running server (make sdk-test does)")
    return value


@pytest.fixture(scope="session")
def client(target: str) -> Iterator[CanastaClient]:
    with CanastaClient(target, timeout=10.0) as c:
        yield c
