"""CANASTA_WORKERS=N: N processes on one port pair (SO_REUSEPORT on purpose, only there),
/metrics adding up all of them, SIGTERM stopping all, and a taken port still refused."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service.config import GROUP_GRPC_THREADS, ConfigError, Settings
from service.keys import new_key_entry
from service.pb import api, api_grpc
from service.workers import PortBusy, reserve, worker_cpus

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def supervisor(tmp_path: Path, **env: str) -> Iterator[subprocess.Popen[str]]:
    ready = tmp_path / "ready.json"
    full = {k: v for k, v in os.environ.items()
            if not k.startswith("CANASTA_") and k != "PROMETHEUS_MULTIPROC_DIR"}
    full.update({"CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0", "CANASTA_WORKERS": "2",
                 "CANASTA_SEAL_KEYS": new_key_entry("w1"), "CANASTA_ACCESS_LOG": "false",
                 "CANASTA_GRACE_SECONDS": "3", **env})
    proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                            cwd=ROOT, env=full, stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _wait_ready(proc: subprocess.Popen[str], path: Path) -> dict[str, object]:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.05)
    ready: dict[str, object] = json.loads(path.read_text())
    return ready


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in \
        Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def _sample(text: str, name: str, **labels: str) -> float:
    return sum(s.value for family in text_string_to_metric_families(text)
               for s in family.samples if s.name == name and labels.items() <= s.labels.items())


def test_workers_setting() -> None:
    assert Settings.from_env({}).workers == 1
    assert Settings.from_env({"CANASTA_WORKERS": "4"}).workers == 4
    for bad in ("0", "many", "65"):
        with pytest.raises(ConfigError):
            Settings.from_env({"CANASTA_WORKERS": bad})


def test_grpc_threads_setting() -> None:
    """"auto" (the default) serves gRPC with grpc.aio in a lone process and with a thread
    pool in each worker of a group; a number chooses for both (0 is grpc.aio)."""
    auto = Settings.from_env({})
    assert auto.grpc_threads is None
    assert (auto.grpc_threads_for(False), auto.grpc_threads_for(True)) == (0, GROUP_GRPC_THREADS)
    assert Settings.from_env({"CANASTA_GRPC_THREADS": "auto"}).grpc_threads is None
    for raw, threads in (("0", 0), ("8", 8)):
        chosen = Settings.from_env({"CANASTA_GRPC_THREADS": raw})
        assert (chosen.grpc_threads_for(False), chosen.grpc_threads_for(True)) == (threads,
                                                                                  threads)
    for bad in ("-1", "257", "many"):
        with pytest.raises(ConfigError):
            Settings.from_env({"CANASTA_GRPC_THREADS": bad})


def _allowed(pid: int) -> set[str]:
    """The CPU lists (Cpus_allowed_list) of every thread of a process."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            if line.startswith("Cpus_allowed_list:"):
                found.add(line.split(":", 1)[1].strip())
    return found


MULTI_CPU = len(os.sched_getaffinity(0)) >= 2


def test_worker_affinity_setting_and_plan() -> None:
    assert Settings.from_env({}).worker_affinity is False  # opt-in: no gain measured here
    assert Settings.from_env({"CANASTA_WORKER_AFFINITY": "true"}).worker_affinity is True
    assert Settings.from_env({"CANASTA_WORKER_AFFINITY": "false"}).worker_affinity is False
    with pytest.raises(ConfigError):
        Settings.from_env({"CANASTA_WORKER_AFFINITY": "sometimes"})
    allowed = sorted(os.sched_getaffinity(0))
    assert worker_cpus(3, False) == [None, None, None]
    if len(allowed) >= 2:
        assert worker_cpus(3, True) == [allowed[0], allowed[1], allowed[2 % len(allowed)]]
    else:
        assert worker_cpus(3, True) == [None, None, None]


@pytest.mark.skipif(not MULTI_CPU, reason="binding needs two CPUs or more")
@pytest.mark.parametrize("affinity", ["true", "false"])
def test_each_worker_is_bound_to_its_own_cpu(tmp_path: Path, affinity: str) -> None:
    """Every thread of a worker (grpc's C-core threads too) runs on that worker's CPU only;
    with CANASTA_WORKER_AFFINITY=false the workers keep the supervisor's CPUs."""
    with supervisor(tmp_path, CANASTA_WORKER_AFFINITY=affinity) as proc:
        ready = _wait_ready(proc, tmp_path / "ready.json")
        workers = ready["workers"]
        assert isinstance(workers, list)
        with grpc.insecure_channel(f"127.0.0.1:{ready['grpc_port']}") as channel:
            api_grpc.CanastaEngineStub(channel).Deal(
                api.DealRequest(variant="classic", players=2), timeout=20)
        lists = [_allowed(pid) for pid in workers]
        if affinity == "true":
            allowed = sorted(os.sched_getaffinity(0))
            assert lists == [{str(allowed[0])}, {str(allowed[1])}]
        else:
            free = _allowed(proc.pid)
            assert lists == [free, free]
            assert not any(cpus.isdigit() for cpus in free)  # a range or a list, not one CPU


def test_reserve_refuses_strangers_and_lets_siblings_in() -> None:
    held = reserve("127.0.0.1", 0)
    port = held.getsockname()[1]
    try:
        plain = socket.socket()
        with pytest.raises(OSError):
            plain.bind(("127.0.0.1", port))  # a server without SO_REUSEPORT cannot take it
        plain.close()
        sibling = socket.socket()
        sibling.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sibling.bind(("127.0.0.1", port))
        sibling.listen()
        with pytest.raises(PortBusy):  # and nobody reserves a port someone listens on
            reserve("127.0.0.1", port).close()
        sibling.close()
    finally:
        held.close()


def test_workers_share_the_ports_add_up_metrics_and_stop_on_sigterm(tmp_path: Path) -> None:
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    (metrics_dir / "counter_1.db").write_bytes(b"stale")  # a previous run's: wiped at start
    with supervisor(tmp_path, PROMETHEUS_MULTIPROC_DIR=str(metrics_dir)) as proc:
        ready = _wait_ready(proc, tmp_path / "ready.json")
        workers = ready["workers"]
        assert isinstance(workers, list) and len(workers) == 2
        assert all(_alive(pid) for pid in workers)
        assert not (metrics_dir / "counter_1.db").exists()
        base = f"http://127.0.0.1:{ready['http_port']}"
        deals = 24
        for _ in range(deals):  # a new connection each: the kernel spreads connections
            with httpx.Client(base_url=base, timeout=20) as http:
                assert http.post("/v1/deal", json={"variant": "classic",
                                                   "players": 4}).status_code == 200
        calls = 0
        for _ in range(6):
            with grpc.insecure_channel(f"127.0.0.1:{ready['grpc_port']}") as channel:
                stub = api_grpc.CanastaEngineStub(channel)
                for _ in range(3):
                    stub.Deal(api.DealRequest(variant="classic", players=2), timeout=20)
                    calls += 1
        served = {int(p.stem.rsplit("_", 1)[1]) for p in metrics_dir.glob("counter_*.db")}
        assert served == set(workers), "both workers took connections"
        for _ in range(4):  # whichever worker answers, it reports all of them
            text = httpx.get(f"{base}/metrics", timeout=20).text
            assert _sample(text, "http_requests_total", route="/v1/deal",
                           status="200") == deals
            assert _sample(text, "http_request_duration_seconds_count",
                           route="/v1/deal") == deals
            assert _sample(text, "grpc_server_handled_total", grpc_method="Deal",
                           grpc_code="OK") == calls
            assert _sample(text, "canasta_deals_total", variant="classic") == deals + calls
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert not any(_alive(pid) for pid in workers)
        err = proc.stderr.read() if proc.stderr else ""
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    listening = [line for line in lines if line["msg"] == "listening"]
    assert [line["worker"] for line in listening].count(0) == 1
    assert [line["grpc_server"] for line in listening] == [f"threads:{GROUP_GRPC_THREADS}"] * 2
    assert sum(line["msg"] == "stopped" for line in lines) == 3  # two workers, then the parent


def test_a_worker_that_dies_stops_the_group(tmp_path: Path) -> None:
    with supervisor(tmp_path) as proc:
        ready = _wait_ready(proc, tmp_path / "ready.json")
        workers = ready["workers"]
        assert isinstance(workers, list)
        os.kill(workers[0], signal.SIGKILL)
        assert proc.wait(timeout=30) == 1
        assert not any(_alive(pid) for pid in workers)


def test_workers_stop_when_the_supervisor_is_killed(tmp_path: Path) -> None:
    with supervisor(tmp_path) as proc:
        ready = _wait_ready(proc, tmp_path / "ready.json")
        workers = ready["workers"]
        assert isinstance(workers, list)
        proc.kill()  # SIGKILL: no chance to pass anything on
        proc.wait(10)
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "orphaned workers kept running"
            time.sleep(0.1)


@pytest.mark.parametrize("reuse_port", [False, True], ids=["plain", "reuseport"])
def test_workers_refuse_a_taken_port(tmp_path: Path, reuse_port: bool) -> None:
    """A stale server on the port - even one that set SO_REUSEPORT - is an error, not a
    silent partner."""
    stale = socket.socket()
    if reuse_port:
        stale.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    stale.bind(("127.0.0.1", 0))
    stale.listen()
    try:
        with supervisor(tmp_path, CANASTA_GRPC_PORT=str(stale.getsockname()[1])) as proc:
            assert proc.wait(timeout=60) == 1
            err = proc.stderr.read() if proc.stderr else ""
        assert "cannot share a port that is taken" in err
        assert not (tmp_path / "ready.json").exists()
    finally:
        stale.close()
