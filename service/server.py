"""Run both faces in one process: gRPC (grpc.aio in the asyncio loop, or a thread pool)
and REST (uvicorn, in the loop).

``python -m service`` (what ``make run`` starts). On SIGTERM or SIGINT both
stop gracefully: health turns NOT_SERVING and /readyz 503, no new calls are
accepted (a gRPC call that has not started gets ``UNAVAILABLE``, retryable),
in-flight calls get ``CANASTA_GRACE_SECONDS`` to finish, then the process exits 0. With ``CANASTA_WORKERS`` > 1 this process becomes the
supervisor of that many such processes on the same ports (service/workers.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any

import grpc
import uvicorn
from grpc_health.v1 import health as health_sync
from grpc_health.v1.health import aio as health_aio

import engine
from service import grpc_server, grpc_threads, logs
from service.config import AccessMode, ConfigError, Settings
from service.core import Core
from service.http_app import Readiness, create_app
from service.http_limits import HttpLimits, protocol_class
from service.keys import BadKeyConfig, KeyRing, dev_key_ring
from service.snapshot import Sealer

log = logging.getLogger("canasta.server")


class _Uvicorn(uvicorn.Server):
    """uvicorn without its own signal handlers: this process owns SIGTERM."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def key_ring(settings: Settings) -> KeyRing:
    """The configured keys, else the development key file, else an error.

    :raises BadKeyConfig: no keys at all, or a malformed entry.
    """
    if settings.seal_keys:
        return KeyRing.parse(settings.seal_keys)
    if settings.dev_key_file:
        return dev_key_ring(Path(settings.dev_key_file))
    raise BadKeyConfig("set CANASTA_SEAL_KEYS (or CANASTA_DEV_KEY_FILE for development)")


def http_socket(bind: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A listening socket; without SO_REUSEPORT (the default) a second server on the port
    fails loudly. Workers of a supervisor share the port with it (service/workers.py)."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    # proto must be IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted sockets only then, and
    # without it every keep-alive answer waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((bind, port))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


class App:
    """Both servers over one :class:`Core`; start, then ``stop`` (idempotent)."""

    def __init__(self, settings: Settings, keys: KeyRing, worker: int | None = None) -> None:
        self.settings = settings
        self.worker = worker  # index under a supervisor: share the ports (SO_REUSEPORT)
        self.core = Core(Sealer(keys, settings.max_snapshot_bytes, settings.state_cache),
                         settings.export_policy, settings.access)
        if settings.access is AccessMode.TRUSTED:
            log.warning("CANASTA_ACCESS=trusted: every call without a credential acts as the "
                        "host and sees every hand; use it only where no player can reach "
                        "this service")
        self.readiness = Readiness()
        # 0: grpc.aio in this loop; N: grpcio's thread-pool server (service/grpc_threads.py)
        self.grpc_threads = settings.grpc_threads_for(worker is not None)
        self.health: Any = (health_sync.HealthServicer() if self.grpc_threads
                            else health_aio.HealthServicer())
        # the engine's gRPC calls in flight (CANASTA_MAX_CONCURRENT_RPCS) and the stop
        self.gate = grpc_server.Gate(settings.max_concurrent_rpcs)
        self.grpc: grpc.aio.Server | grpc.Server | None = None
        self.grpc_port = 0
        self.http_port = 0
        self._http: _Uvicorn | None = None
        self._http_task: asyncio.Task[None] | None = None
        self._stopping: asyncio.Task[None] | None = None

    async def start(self) -> None:
        s = self.settings
        shared = self.worker is not None
        if self.grpc_threads:
            self.grpc, self.grpc_port = grpc_threads.start(
                self.core, s, self.grpc_threads, self.health, shared, self.gate)
        else:
            self.grpc, self.grpc_port = await grpc_server.start(
                self.core, s, self.health, shared, self.gate)
        sock = http_socket(s.bind, s.http_port, shared)
        self.http_port = sock.getsockname()[1]
        app = create_app(self.core, self.readiness, s.max_message_bytes, s.access_log,
                         cors_origins=s.cors_origins)
        limits = HttpLimits(max_header_bytes=s.http_max_header_bytes,
                            header_timeout_s=s.http_header_timeout_s,
                            body_timeout_s=s.http_body_timeout_s,
                            max_connections=s.http_max_connections, access_log=s.access_log)
        # httptools with a header cap, receive timeouts and a connection cap (http_limits.py)
        config = uvicorn.Config(app, http=protocol_class(limits), log_config=None,
                                access_log=False, lifespan="off",
                                timeout_graceful_shutdown=max(1, int(s.grace_seconds)),
                                server_header=False)
        self._http = _Uvicorn(config)
        self._http_task = asyncio.create_task(self._http.serve(sockets=[sock]))
        while not self._http.started:
            if self._http_task.done():
                await self._http_task
                raise RuntimeError("the HTTP server did not start")
            await asyncio.sleep(0.01)
        log.info("listening", extra={"fields": {
            "grpc": f"{s.bind}:{self.grpc_port}", "http": f"{s.bind}:{self.http_port}",
            "key_ids": list(self.core.sealer.keys.key_ids), "engine": engine.BUILD,
            "grpc_server": f"threads:{self.grpc_threads}" if self.grpc_threads else "aio",
            "access": s.access.value,
            **({"worker": self.worker, "pid": os.getpid()} if shared else {})}})

    def stop(self) -> asyncio.Task[None]:
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._stop())
        return self._stopping

    async def _stop(self) -> None:
        log.info("shutting down", extra={"fields": {"grace_seconds": self.settings.grace_seconds}})
        self.readiness.ready = False
        waits: list[Awaitable[Any]] = []
        if isinstance(self.health, health_sync.HealthServicer):
            self.health.enter_graceful_shutdown()
        else:
            await self.health.enter_graceful_shutdown()
        if self.grpc is not None:  # new calls get UNAVAILABLE while those in flight end
            waits.append(grpc_server.stop(self.grpc, self.gate, self.settings.grace_seconds))
        if self._http is not None and self._http_task is not None:
            self._http.should_exit = True
            waits.append(self._http_task)
        await asyncio.gather(*waits, return_exceptions=True)
        log.info("stopped")

    async def wait(self) -> None:
        """Until the HTTP server ends (after ``stop``, or on its own), then stop both."""
        if self._http_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._http_task
        await self.stop()


async def _orphaned(app: App, parent: int) -> None:
    """A worker stops by itself if its supervisor goes away without stopping it."""
    while os.getppid() == parent:
        await asyncio.sleep(1.0)
    log.warning("the supervisor is gone: stopping")
    app.stop()


async def serve(settings: Settings, keys: KeyRing, ready_file: Path | None = None,
                worker: int | None = None) -> None:
    parent = os.getppid()
    app = App(settings, keys, worker)
    try:
        await app.start()
    except BaseException:
        await app.stop()
        raise
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, app.stop)
    if ready_file is not None:
        tmp = ready_file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"grpc_port": app.grpc_port, "http_port": app.http_port}))
        tmp.replace(ready_file)
    watch = asyncio.create_task(_orphaned(app, parent)) if worker is not None else None
    await app.wait()
    if watch is not None:
        watch.cancel()


def _loop_factory() -> type[asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.Loop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Canasta rules service: gRPC and REST.")
    parser.add_argument("--ready-file", type=Path, default=None,
                        help="write the bound ports here as JSON once both servers listen")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--cpu", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cpu is not None:  # a worker bound to one CPU by its supervisor (service/workers.py)
        from service.workers import pin

        pin(args.cpu)
    try:
        settings = Settings.from_env()
        logs.setup(settings.log_level)
        keys = key_ring(settings)
    except (ConfigError, BadKeyConfig) as err:
        logs.setup()
        log.error("configuration error: %s", err)
        return 2
    if settings.workers > 1 and args.worker is None:
        from service.workers import supervise  # the supervisor serves nothing itself

        return supervise(settings, args.ready_file)
    factory = _loop_factory()
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(serve(settings, keys, args.ready_file, args.worker))
    return 0


if __name__ == "__main__":
    sys.exit(main())
