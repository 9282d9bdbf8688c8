"""Several server processes on one machine: ``CANASTA_WORKERS=N`` (N > 1).

One Python process serves about one core (the GIL), so on a VM or a bare
machine with more cores this supervisor starts N copies of ``python -m
service`` that share the gRPC and the HTTP port through SO_REUSEPORT; the
kernel spreads *connections* (not calls) over them. In Kubernetes keep N = 1
and scale replicas instead (docs/operations.md).

Port sharing is on purpose here and only here. A lone server keeps
SO_REUSEPORT off, so a second server on a busy port fails loudly instead of
silently taking half the connections. Before starting workers the supervisor
binds each port *without* SO_REUSEPORT — this fails if any server, even one
that set SO_REUSEPORT, listens there — and only then allows sharing on that
socket. It keeps the socket, bound but not listening (it takes no
connections), until it exits, so its workers can join the port and a stranger
that does not set SO_REUSEPORT cannot. What remains possible: a process of
the same user that sets SO_REUSEPORT can still join while the workers run.

CPU affinity (``CANASTA_WORKER_AFFINITY``, off by default): when on, each
worker is bound to one CPU of the supervisor's allowed set, round robin, grpc's
C-core I/O threads included. On the 2-vCPU machines measured here it changed
nothing beyond noise (two busy workers pay 10-20 % more CPU per call than a lone
one either way, single-threaded REST too, so the cost is the machine's), hence
opt-in: for hosts where an operator wants workers kept apart (cpusets, noisy
neighbours). With fewer than two allowed CPUs nothing is bound.

Metrics: each worker is started with ``PROMETHEUS_MULTIPROC_DIR`` (the given
one, wiped of old values, else a fresh temporary folder) so /metrics adds up
all workers. Signals: SIGTERM or SIGINT is passed on to every worker, each
stops gracefully (``CANASTA_GRACE_SECONDS``), and the supervisor exits 0 once
all have. A worker that dies on its own stops the others and the supervisor
exits 1 (the orchestrator restarts the whole group); a worker whose
supervisor is gone stops by itself.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

from prometheus_client import multiprocess

from service.config import Settings

log = logging.getLogger("canasta.workers")

ROOT = Path(__file__).resolve().parent.parent  # the folder that holds the service package
START_TIMEOUT_S = 60.0
KILL_MARGIN_S = 5.0
POLL_S = 0.1


class PortBusy(OSError):
    """Something already listens on a port the workers are to share."""


def reserve(bind: str, port: int) -> socket.socket:
    """Bind ``port`` exclusively (fails if anyone listens there), then open it to siblings.

    The socket never listens, so it takes no connections; workers bind the same port
    with SO_REUSEPORT and listen. Port 0 picks a free port for all of them.

    :raises PortBusy: the port is taken.
    """
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is no clash
        sock.bind((bind, port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    except OSError as err:
        sock.close()
        raise PortBusy(err.errno, f"{bind}:{port}: {err.strerror}") from None
    return sock


def worker_cpus(workers: int, affinity: bool) -> list[int | None]:
    """The CPU each worker is bound to (``None``: not bound), round robin over the
    CPUs this process may use."""
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if not affinity or len(allowed) < 2:
        return [None] * workers
    return [allowed[i % len(allowed)] for i in range(workers)]


def pin(cpu: int) -> None:
    """Bind this process to one CPU; called first thing in a worker, before any thread
    exists, so every thread it starts later (grpc's among them) inherits the binding."""
    os.sched_setaffinity(0, {cpu})


def _metrics_dir() -> tuple[Path, bool]:
    """The multiprocess folder, wiped of old values; True when made here (removed at exit)."""
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
    if not given:
        return Path(tempfile.mkdtemp(prefix="canasta-metrics-")), True
    path = Path(given)
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.db"):
        old.unlink()
    return path, False


def supervise(settings: Settings, ready_file: Path | None = None) -> int:
    """Run ``settings.workers`` workers until SIGTERM/SIGINT (0) or until one dies (1)."""
    try:
        held = [reserve(settings.bind, settings.grpc_port),
                reserve(settings.bind, settings.http_port)]
    except PortBusy as err:
        log.error("cannot share a port that is taken: %s", err.strerror)
        return 1
    grpc_port, http_port = (s.getsockname()[1] for s in held)
    metrics_dir, made = _metrics_dir()
    scratch = Path(tempfile.mkdtemp(prefix="canasta-workers-"))
    env = dict(os.environ, CANASTA_GRPC_PORT=str(grpc_port), CANASTA_HTTP_PORT=str(http_port),
               PROMETHEUS_MULTIPROC_DIR=str(metrics_dir))
    stop: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    procs: list[subprocess.Popen[bytes]] = []
    code = 1
    try:
        cpus = worker_cpus(settings.workers, settings.worker_affinity)
        for i, cpu in enumerate(cpus):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "service", "--worker", str(i),
                 *(("--cpu", str(cpu)) if cpu is not None else ()),
                 "--ready-file", str(scratch / f"worker-{i}.json")], cwd=ROOT, env=env))
        if _started(procs, scratch, stop):
            log.info("workers started", extra={"fields": {
                "workers": len(procs), "pids": [p.pid for p in procs],
                "cpus": cpus,
                "grpc": f"{settings.bind}:{grpc_port}", "http": f"{settings.bind}:{http_port}",
                "metrics_dir": str(metrics_dir)}})
            if ready_file is not None:
                _write_ready(ready_file, {"grpc_port": grpc_port, "http_port": http_port,
                                          "workers": [p.pid for p in procs]})
            while not stop and all(p.poll() is None for p in procs):
                time.sleep(POLL_S)
        code = 0 if stop else 1
        for p in procs:
            if p.poll() is not None and not stop:
                log.error("worker exited on its own", extra={"fields": {
                    "pid": p.pid, "exit_code": p.returncode}})
        log.info("stopping workers", extra={"fields": {"signal": stop[0] if stop else None}})
        if not _stop_all(procs, settings.grace_seconds + KILL_MARGIN_S):
            code = 1
        for p in procs:  # only live gauges need it (there are none yet): keeps the folder tidy
            multiprocess.mark_process_dead(p.pid, str(metrics_dir))  # type: ignore[no-untyped-call]
    finally:
        for p in procs:  # only after an error above: _stop_all has waited for all of them
            if p.poll() is None:
                p.kill()
                p.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sock in held:
            sock.close()
        shutil.rmtree(scratch, ignore_errors=True)
        if made:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    log.info("stopped", extra={"fields": {"exit_code": code}})
    return code


def _started(procs: list[subprocess.Popen[bytes]], scratch: Path, stop: list[int]) -> bool:
    """Until every worker wrote its ready file (True); False if one died, time ran out or
    a stop signal came first."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not stop:
        if all((scratch / f"worker-{i}.json").exists() for i in range(len(procs))):
            return True
        if any(p.poll() is not None for p in procs):
            return False
        if time.monotonic() > deadline:
            log.error("the workers did not start in %.0f s", START_TIMEOUT_S)
            return False
        time.sleep(POLL_S / 2)
    return False


def _stop_all(procs: list[subprocess.Popen[bytes]], timeout: float) -> bool:
    """SIGTERM to every live worker, wait up to ``timeout``, then SIGKILL; True if all
    exited 0 (a worker already gone counts by its own exit code)."""
    for p in procs:
        if p.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.error("worker did not stop in time: killed", extra={"fields": {"pid": p.pid}})
            p.kill()
            p.wait()
    return all(p.returncode == 0 for p in procs)


def _write_ready(path: Path, content: dict[str, object]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(content))
    tmp.replace(path)


__all__ = ["PortBusy", "pin", "reserve", "supervise", "worker_cpus"]
