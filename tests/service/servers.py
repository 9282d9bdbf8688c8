"""Real servers on port 0 for the tests: gRPC + REST in one process, its asyncio loop in a
thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import pytest

from service.api.pb import api_grpc
from service.grpc.server import Servicer
from service.ops.config import Settings
from service.sealing.keys import KeyRing, new_key_entry
from service.server import App

BASE = Settings(grpc_port=0, http_port=0, access_log=False, grace_seconds=2.0,
                log_level="WARNING")


class Running:
    """An :class:`App` served from its own event loop in a daemon thread."""

    def __init__(self, settings: Settings, keys: KeyRing) -> None:
        self.app = App(settings, keys)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.stopped = False

    def run(self, coro: Any, timeout: float = 20.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        self.thread.start()
        self.run(self.app.start())

    def stop(self) -> None:
        """Stop both servers and the loop (once; later calls do nothing)."""
        if self.stopped:
            return
        self.stopped = True

        async def stop() -> None:
            await self.app.stop()

        try:
            self.run(stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    @property
    def grpc_target(self) -> str:
        return f"127.0.0.1:{self.app.grpc_port}"

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.app.http_port}"

    def stub(self) -> tuple[grpc.Channel, api_grpc.CanastaEngineStub]:
        channel = grpc.insecure_channel(self.grpc_target)
        return channel, api_grpc.CanastaEngineStub(channel)


@contextmanager
def running(keys: KeyRing | None = None, **changes: Any) -> Iterator[Running]:
    """Start a server pair with :data:`BASE` settings changed by ``changes``."""
    settings = Settings(**{**BASE.model_dump(), **changes})
    server = Running(settings, keys or KeyRing.parse(new_key_entry("test-1")))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def delay_grpc_calls(monkeypatch: pytest.MonkeyPatch, hook: Callable[[Any], None]) -> None:
    """Run ``hook(context)``, which may block, before every ``CanastaEngine`` call (in the
    call's thread of the engine's pool, so neither the event loop nor REST is held up)."""
    call = Servicer._call

    def delayed(self: Any, name: str, request: Any, context: Any) -> Any:
        hook(context)
        return call(self, name, request, context)

    monkeypatch.setattr(Servicer, "_call", delayed)
