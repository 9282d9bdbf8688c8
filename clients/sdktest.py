"""``make sdk-test``: each SDK's own test suite against a live server over real sockets.

    python clients/sdktest.py [--sdk python,typescript,go,java] [--no-sync]

1. checks that the committed generated code matches ``proto/`` (``sdkgen.py --check``);
2. starts the service (``python -m service``) on free ports of 127.0.0.1 with a fresh
   test seal key in ``CANASTA_SEAL_KEYS``, and waits for its ready file;
3. runs each SDK's suite with ``CANASTA_GRPC_TARGET`` (``host:port``) and
   ``CANASTA_REST_URL`` (``http://host:port``) set, installing its dependencies first
   (a venv, ``npm ci`` from the lockfile, ``go mod download`` with go.sum, Maven with
   pinned plugins) into the cache folder ``CANASTA_SDK_CACHE`` (default ``.cache/sdk``);
4. stops the server and prints one line per suite, then ``sdk-test: N passed, M failed``.

Run it with the service's Python (``make sdk-test`` uses ``.venv/bin/python``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

CLIENTS = Path(__file__).resolve().parent
ROOT = CLIENTS.parent
sys.path.insert(0, str(CLIENTS))

import sdkgen  # noqa: E402

CACHE = sdkgen.CACHE
SDKS = ("python", "typescript", "go", "java")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def say(msg: str) -> None:
    sys.stdout.write(f"sdk-test: {msg}\n")
    sys.stdout.flush()


class Failed(Exception):
    """A suite's command failed; ``counts`` are the tests it reported before."""

    def __init__(self, what: str, counts: tuple[int, int] = (0, 1)) -> None:
        super().__init__(what)
        self.counts = counts


def run(cmd: list[str], cwd: Path, env: dict[str, str], check: bool = True) -> str:
    """Run ``cmd``, echoing its output; returns the output (raises :class:`Failed` if ``check``)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace")
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        line = ANSI.sub("", line)  # Maven's colour resets, even in batch mode
        if not line.strip():
            continue
        sys.stdout.write(line)
        lines.append(line)
    sys.stdout.flush()
    out = "".join(lines)
    if proc.wait() != 0:
        if check:
            raise Failed(f"{' '.join(cmd[:3])} ... exited with {proc.returncode}")
        out += f"\n[exit {proc.returncode}]\n"
    return out


class Server:
    """The service in a child process on free ports, with a throw-away seal key."""

    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="canasta-sdk-test-")
        ready = Path(self.tmp.name) / "ready.json"
        env = {**os.environ,
               "CANASTA_BIND": "127.0.0.1", "CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0",
               "CANASTA_SEAL_KEYS": f"sdk-test:{secrets.token_hex(32)}",
               "CANASTA_ACCESS_LOG": "false", "CANASTA_LOG_LEVEL": "WARNING"}
        env.pop("CANASTA_DEV_KEY_FILE", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                                     cwd=ROOT, env=env)
        deadline = time.monotonic() + 60
        while not ready.exists():
            if self.proc.poll() is not None:
                raise SystemExit(f"sdk-test: the service exited with {self.proc.returncode}")
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit("sdk-test: the service did not get ready in 60 s")
            time.sleep(0.05)
        ports = json.loads(ready.read_text())
        self.grpc_target = f"127.0.0.1:{ports['grpc_port']}"
        self.rest_url = f"http://127.0.0.1:{ports['http_port']}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.tmp.cleanup()


# ---- the suites: each returns (passed, failed) --------------------------------------------

def suite_python(env: dict[str, str]) -> tuple[int, int]:
    venv = CACHE / "venv-python"
    python = venv / "bin" / "python"
    if not python.exists():
        run([sys.executable, "-m", "venv", str(venv)], ROOT, env)
    for stale in [CLIENTS / "python" / "build", *(CLIENTS / "python" / "src").glob("*.egg-info")]:
        shutil.rmtree(stale, ignore_errors=True)  # setuptools' in-tree leftovers go into wheels
    run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         f"{CLIENTS / 'python'}[test]"], ROOT, env)
    report = CACHE / "reports" / "python.xml"
    report.unlink(missing_ok=True)
    out = run([str(python), "-m", "pytest", f"--junitxml={report}"], CLIENTS / "python", env,
              check=False)
    return finish(out, junit_counts([report]) if report.exists() else (0, 1))


def finish(out: str, found: tuple[int, int]) -> tuple[int, int]:
    """The counts, or :class:`Failed` with them when the runner exited non-zero."""
    if re.search(r"\[exit \d+\]\n$", out):
        raise Failed("the test runner failed", (found[0], max(found[1], 1)))
    return found


def suite_typescript(env: dict[str, str]) -> tuple[int, int]:
    ts = CLIENTS / "typescript"
    sdkgen.node_tools()  # npm ci from the lockfile, unless node_modules already matches it
    out = run(["npm", "test", "--silent"], ts, env, check=False)
    return finish(out, counts(out, r"^# pass (\d+)", r"^# fail (\d+)"))


def suite_go(env: dict[str, str]) -> tuple[int, int]:
    go = CLIENTS / "go"
    env = {**env, **sdkgen.go_env()}
    env.pop("GOBIN", None)
    run(["go", "mod", "download"], go, env)
    run(["go", "vet", "./..."], go, env)
    out = run(["go", "test", "-count=1", "-v", "./..."], go, env, check=False)
    return finish(out, counts(out, r"^--- PASS", r"^--- FAIL", count_lines=True))


def suite_java(env: dict[str, str]) -> tuple[int, int]:
    java = CLIENTS / "java"
    reports = java / "target" / "surefire-reports"
    for old in reports.glob("TEST-*.xml") if reports.exists() else ():
        old.unlink()
    out = run(["mvn", "-q", "-B", "-ntp", "-Dstyle.color=never",
               f"-Dmaven.repo.local={CACHE / 'm2'}", "test"], java, env, check=False)
    files = sorted(reports.glob("TEST-*.xml")) if reports.exists() else []
    return finish(out, junit_counts(files))


def junit_counts(files: list[Path]) -> tuple[int, int]:
    passed = failed = 0
    for f in files:
        root = ET.parse(f).getroot()
        for suite in ([root] if root.tag == "testsuite" else root.iter("testsuite")):
            total = int(suite.get("tests", 0))
            bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            skipped = int(suite.get("skipped", 0))
            passed += total - bad - skipped
            failed += bad
    return passed, failed


def counts(out: str, ok: str, bad: str | None, count_lines: bool = False) -> tuple[int, int]:
    def grab(pattern: str | None) -> int:
        if pattern is None:
            return 0
        found = re.findall(pattern, out, re.M)
        return len(found) if count_lines else sum(int(x) for x in found)

    return grab(ok), grab(bad)


SUITES: dict[str, Callable[[dict[str, str]], tuple[int, int]]] = {
    "python": suite_python, "typescript": suite_typescript, "go": suite_go, "java": suite_java,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sdk", default=",".join(SDKS),
                        help="comma-separated SDKs to test (default: all four)")
    parser.add_argument("--no-sync", action="store_true",
                        help="skip the generated-code sync check")
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.sdk.split(",") if s.strip()]
    unknown = set(chosen) - set(SDKS)
    if unknown:
        parser.error(f"unknown SDK(s): {', '.join(sorted(unknown))}")
    (CACHE / "reports").mkdir(parents=True, exist_ok=True)
    results: list[tuple[str, bool, int, int, float]] = []
    start = time.monotonic()
    if not args.no_sync:
        t0 = time.monotonic()
        ok = sdkgen.main(["--check"]) == 0
        results.append(("sync", ok, 4 if ok else 0, 0 if ok else 1, time.monotonic() - t0))
    server = Server()
    say(f"service at grpc {server.grpc_target}, rest {server.rest_url}")
    env = {**os.environ, "CANASTA_GRPC_TARGET": server.grpc_target,
           "CANASTA_REST_URL": server.rest_url}
    try:
        for name in chosen:
            t0 = time.monotonic()
            say(f"--- {name}")
            try:
                passed, failed = SUITES[name](env)
                ok = failed == 0 and passed > 0
            except Failed as err:
                say(f"{name}: {err}")
                (passed, failed), ok = err.counts, False
            except OSError as err:
                say(f"{name}: {err}")
                passed, failed, ok = 0, 1, False
            results.append((name, ok, passed, failed, time.monotonic() - t0))
    finally:
        server.stop()
    for name, ok, passed, failed, secs in results:
        say(f"{name:<10} {'ok  ' if ok else 'FAIL'} {passed:3d} passed, {failed} failed "
            f"in {secs:5.1f} s")
    bad = sum(1 for r in results if not r[1])
    say(f"total {time.monotonic() - start:.1f} s")
    sys.stdout.write(f"sdk-test: {len(results) - bad} passed, {bad} failed\n")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
