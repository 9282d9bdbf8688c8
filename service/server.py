"""Run both faces in one process: gRPC (grpcio's thread-pool server) and REST (uvicorn, in
the asyncio loop), over one API core; ``/metrics`` on the REST port, or with
``CANASTA_METRICS_PORT`` on a port of its own (a second uvicorn in the same loop).

``python -m service`` (what ``make run`` starts). On SIGTERM or SIGINT both stop
gracefully: health turns NOT_SERVING (and /readyz 503 until, a tick later, the REST
listener closes, the metrics one with it), no new calls are accepted (a gRPC call that
has not started gets ``UNAVAILABLE``, retryable), in-flight calls get
``CANASTA_GRACE_SECONDS`` to finish (REST whole seconds, at least 1), then the process
exits 0. One process uses about one core; to use more on one machine, run more processes
(docs/operations.md, *Scaling*).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import socket
import sys
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any

import grpc
import uvicorn
from starlette.applications import Starlette

import engine
from service.api.core import Core
from service.api.pb import SERVICE_NAME
from service.grpc import server as grpc_server
from service.ops import logs
from service.ops.config import AccessMode, ConfigError, Settings
from service.ops.gate import Gate, GatedPool
from service.ops.health import Health
from service.rest.app import create_app, metrics_app
from service.rest.limits import HttpLimits, protocol_class
from service.sealing.keys import BadKeyConfig, KeyRing, dev_key_ring
from service.sealing.snapshot import Sealer

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
    try:
        if settings.seal_keys:
            return KeyRing.parse(settings.seal_keys)
        if settings.dev_key_file:
            return dev_key_ring(Path(settings.dev_key_file))
    except BadKeyConfig as err:  # the log line names the variable, as for every setting
        name = "CANASTA_SEAL_KEYS" if settings.seal_keys else "CANASTA_DEV_KEY_FILE"
        raise BadKeyConfig(f"{name}: {err}") from None
    raise BadKeyConfig("set CANASTA_SEAL_KEYS (or CANASTA_DEV_KEY_FILE for development)")


class CannotStart(Exception):
    """The service cannot serve as configured: a deployment's configuration error,
    reported as one line and exit code 2."""


class CannotListen(CannotStart):
    """A server could not take its address (taken, or not one of this machine's)."""


def http_socket(bind: str, port: int) -> socket.socket:
    """A listening socket, without SO_REUSEPORT: a second server on the port fails loudly
    (also the probe of the gRPC port before C-core binds it)."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    # proto must be IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted sockets only then, and
    # without it every keep-alive answer waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((bind, port))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


class App:
    """Both servers over one :class:`Core`; start, then ``stop`` (idempotent)."""

    def __init__(self, settings: Settings, keys: KeyRing) -> None:
        self.settings = settings
        self.core = Core(Sealer(keys, settings.max_snapshot_bytes, settings.state_cache),
                         settings.export_policy, settings.access)
        if settings.access is AccessMode.TRUSTED:
            log.warning("CANASTA_ACCESS=trusted: every call without a credential acts as the "
                        "host and sees every hand; use it only where no player can reach "
                        "this service")
        self.health = Health()
        # the engine's gRPC calls in flight (CANASTA_MAX_CONCURRENT_RPCS) and the stop
        self.gate = Gate(settings.max_concurrent_rpcs)
        self.grpc: grpc.Server | None = None
        self.grpc_port = 0
        self.http_port = 0
        self.metrics_port = 0  # where /metrics answers: the HTTP port unless set apart
        self._http: _Uvicorn | None = None
        self._http_task: asyncio.Task[None] | None = None
        self._metrics: _Uvicorn | None = None
        self._metrics_task: asyncio.Task[None] | None = None
        self._stopping: asyncio.Task[None] | None = None
        # REST's long calls, held to a gate of their own (gRPC's run in a pool of the
        # gRPC server's, behind its gate)
        self.rest_gate = Gate(settings.max_concurrent_rpcs)
        self._long_calls = GatedPool(settings.long_call_threads, self.rest_gate, "rest-long")

    async def start(self) -> None:
        s = self.settings
        try:
            # a probe: C-core would print a line of its own (not JSON) for a port or an
            # address it cannot bind
            http_socket(s.bind, s.grpc_port).close()
        except OSError as err:
            raise CannotListen(f"gRPC cannot listen on {s.bind}:{s.grpc_port} (CANASTA_BIND, "
                               f"CANASTA_GRPC_PORT): {err.strerror or err}") from None
        try:
            self.grpc, self.grpc_port = grpc_server.start(self.core, s, self.health, self.gate)
        except RuntimeError as err:  # grpcio's "Failed to bind to address ..."
            raise CannotListen(f"gRPC cannot listen on {s.bind}:{s.grpc_port} (CANASTA_BIND, "
                               f"CANASTA_GRPC_PORT): {err}") from None
        sock = self._listen("REST", "CANASTA_HTTP_PORT", s.http_port)
        self.http_port = self.metrics_port = sock.getsockname()[1]
        app = create_app(self.core, self._long_calls, self.health, s.max_message_bytes,
                         s.access_log, cors_origins=s.cors_origins,
                         serve_metrics=s.metrics_port is None)
        self._http, self._http_task = await self._serve(app, sock, cors=bool(s.cors_origins))
        if s.metrics_port is not None:
            sock = self._listen("Metrics", "CANASTA_METRICS_PORT", s.metrics_port)
            self.metrics_port = sock.getsockname()[1]
            self._metrics, self._metrics_task = await self._serve(metrics_app(), sock)
        self.health.serving(SERVICE_NAME)
        log.info("listening", extra={"fields": {
            "grpc": f"{s.bind}:{self.grpc_port}", "http": f"{s.bind}:{self.http_port}",
            "metrics": f"{s.bind}:{self.metrics_port}",
            "key_ids": list(self.core.sealer.keys.key_ids), "engine": engine.BUILD,
            "grpc_threads": s.grpc_threads, "long_call_threads": s.long_call_threads,
            "access": s.access.value}})

    def _listen(self, face: str, variable: str, port: int) -> socket.socket:
        """:func:`http_socket` on ``CANASTA_BIND``, or :class:`CannotListen` naming
        ``variable``."""
        bind = self.settings.bind
        try:
            return http_socket(bind, port)
        except OSError as err:
            raise CannotListen(f"{face} cannot listen on {bind}:{port} (CANASTA_BIND, "
                               f"{variable}): {err.strerror or err}") from None

    async def _serve(self, app: Starlette, sock: socket.socket, cors: bool = False
                     ) -> tuple[_Uvicorn, asyncio.Task[None]]:
        """``app`` served by uvicorn on ``sock`` in this loop, once it has started; with
        ``cors``, the answers written before the application are readable by any page."""
        s = self.settings
        limits = HttpLimits(max_header_bytes=s.http_max_header_bytes,
                            header_timeout_s=s.http_header_timeout_s,
                            body_timeout_s=s.http_body_timeout_s,
                            max_connections=s.http_max_connections, access_log=s.access_log,
                            cors=cors)
        # httptools with a header cap, receive timeouts and a connection cap (rest/limits.py);
        # no WebSocket route, so no WebSocket protocol: where a WebSocket library is
        # installed (the dev set's), uvicorn took a route's upgrade request for a WebSocket
        # and answered a bare 403, where without one the request is answered as any other
        config = uvicorn.Config(app, http=protocol_class(limits), ws="none", log_config=None,
                                access_log=False, lifespan="off",
                                timeout_graceful_shutdown=max(1, int(s.grace_seconds)),
                                server_header=False)
        server = _Uvicorn(config)
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if task.done():
                await task
                raise RuntimeError(f"the HTTP server on port {sock.getsockname()[1]} did "
                                   "not start")
            await asyncio.sleep(0.01)
        return server, task

    def stop(self) -> asyncio.Task[None]:
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._stop())
        return self._stopping

    async def _stop(self) -> None:
        log.info("shutting down", extra={"fields": {"grace_seconds": self.settings.grace_seconds}})
        self.health.stopping()
        waits: list[Awaitable[Any]] = []
        if self.grpc is not None:  # new calls get UNAVAILABLE while those in flight end
            waits.append(grpc_server.stop(self.grpc, self.gate, self.settings.grace_seconds))
        for server, task in ((self._http, self._http_task),
                             (self._metrics, self._metrics_task)):
            if server is not None and task is not None:  # both close at their next tick
                server.should_exit = True
                waits.append(task)
        await asyncio.gather(*waits, return_exceptions=True)
        self._long_calls.shutdown(wait=False, cancel_futures=True)
        log.info("stopped")

    async def wait(self) -> None:
        """Until the HTTP server or the metrics one ends (after ``stop``, or on its own),
        then stop them all: a process whose metrics server had ended served on unscraped."""
        tasks = [t for t in (self._http_task, self._metrics_task) if t is not None]
        if tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        await self.stop()


async def serve(settings: Settings, keys: KeyRing, ready_file: Path | None = None) -> None:
    app = App(settings, keys)
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
        try:
            tmp.write_text(json.dumps({"grpc_port": app.grpc_port, "http_port": app.http_port,
                                       "metrics_port": app.metrics_port}))
            tmp.replace(ready_file)
        except OSError as err:  # no such folder, a read-only filesystem: was a traceback
            with contextlib.suppress(OSError):  # written, then not moved (a folder's path)
                tmp.unlink(missing_ok=True)
            await app.stop()
            raise CannotStart(f"--ready-file {ready_file}: {err.strerror or err}") from None
    await app.wait()


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
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
        logs.setup(settings.log_level)
        for name, setting in Settings.misspelt().items():
            log.warning("%s is not a setting and is ignored; did you mean %s?", name, setting)
        for name, instead in Settings.removed().items():
            log.warning("%s is no longer a setting (removed in 0.11) and is ignored: %s",
                        name, instead)
        keys = key_ring(settings)
    except (ConfigError, BadKeyConfig) as err:
        logs.setup()
        log.error("configuration error: %s", err)
        return 2
    except OSError as err:  # the development key file cannot be read or made
        log.error("configuration error: CANASTA_DEV_KEY_FILE: %s", err)
        return 2
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(serve(settings, keys, args.ready_file))
    except CannotStart as err:
        log.error("configuration error: %s", err)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
