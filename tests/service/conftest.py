"""Fixtures for the service tests: real servers on port 0, clients over real sockets.

One server pair (gRPC + REST in one process, its asyncio loop in a background
thread) is shared by a test session's worker; tests that need other settings start
their own with :func:`tests.service.servers.running`.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from service.api.pb import api_grpc
from tests.service.helpers import Call, call_grpc, call_rest
from tests.service.servers import Running, running


@pytest.fixture(scope="session")
def server() -> Iterator[Running]:
    with running() as s:
        yield s


@pytest.fixture(scope="session")
def stub(server: Running) -> Iterator[api_grpc.CanastaEngineStub]:
    channel, stub = server.stub()
    with channel:
        yield stub


@pytest.fixture(scope="session")
def http(server: Running) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.http_base, timeout=20.0) as client:
        yield client


@pytest.fixture(params=["grpc", "rest"])
def call(request: pytest.FixtureRequest, stub: api_grpc.CanastaEngineStub,
         http: httpx.Client) -> Call:
    """One RPC over each face in turn: a result, or the :class:`Failure` both report."""
    if request.param == "grpc":
        return lambda method, req, token=None: call_grpc(stub, method, req, token=token)
    return lambda method, req, token=None: call_rest(http, method, req, token=token)
