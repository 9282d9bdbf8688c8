"""docs/operations.md, *Keys*: the rotation's kubectl commands, run as written against a stub
of the cluster (a ``kubectl`` on PATH that keeps the Secret in a file and notes each call)."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from service.sealing.keys import KeyRing, new_key_entry

ROOT = Path(__file__).resolve().parents[2]

# The stub: the Secret's data in cluster.json (get reads it, apply writes it, a restart is a
# rollout of the ring it then holds); each call's arguments in a file of its own, since a
# pipeline's two calls run at once.
KUBECTL = '''
import base64, json, os, sys
from pathlib import Path

here = Path(os.environ["KUBECTL_STUB"])
args = sys.argv[1:]
(here / f"argv-{os.getpid()}.json").write_text(json.dumps(args))
cluster = here / "cluster.json"
if args[:2] == ["-n", "canasta"]:
    args = args[2:]
if args[:3] == ["get", "secret", "canasta-seal-keys"]:
    assert args[3:] == ["-o", "jsonpath={.data.CANASTA_SEAL_KEYS}"], args
    sys.stdout.write(json.loads(cluster.read_text())["secret"])
elif args[:4] == ["create", "secret", "generic", "canasta-seal-keys"]:
    assert "--dry-run=client" in args and args[-2:] == ["-o", "yaml"], args
    value = None
    for arg in args:
        name, _, source = arg.partition("=CANASTA_SEAL_KEYS=")
        if name == "--from-literal":
            value = source.encode()
        elif name == "--from-file":
            value = Path(source).read_bytes()
    assert value is not None, args
    print(json.dumps({"apiVersion": "v1", "kind": "Secret",  # JSON is YAML
                      "metadata": {"name": "canasta-seal-keys", "namespace": "canasta"},
                      "data": {"CANASTA_SEAL_KEYS": base64.b64encode(value).decode()}}))
elif args == ["apply", "-f", "-"]:
    secret = json.loads(sys.stdin.read())["data"]["CANASTA_SEAL_KEYS"]
    state = json.loads(cluster.read_text())
    cluster.write_text(json.dumps({**state, "secret": secret,
                                   "calls": [*state["calls"], "apply"]}))
elif args in (["rollout", "restart", "deployment/canasta-rules"],
              ["rollout", "status", "deployment/canasta-rules"]):
    state = json.loads(cluster.read_text())
    ring = base64.b64decode(state["secret"]).decode()
    cluster.write_text(json.dumps({**state, "calls": [*state["calls"], f"{args[1]} {ring}"]}))
else:
    sys.exit(f"kubectl stub: no such call {args}")
'''


def _rotation_commands() -> str:
    """The sh block of the rotation's kubectl commands."""
    text = (ROOT / "docs" / "operations.md").read_text()
    found = re.search(r"With `kubectl`, each step writes.*?```sh\n(.*?)```", text, re.S)
    assert found, "docs/operations.md: the rotation's kubectl commands"
    return found[1]


def test_the_rotation_commands_write_each_ring_and_put_no_key_on_a_command_line(
        tmp_path: Path) -> None:
    """The three steps roll out old+new, new+old, then new alone, each written whole, then
    restarted and waited for; and no kubectl call has a key among its arguments: the
    commands put the ring on ``--from-literal=``, where ``ps`` shows it to every user of the
    machine (and audit logs keep it)."""
    old = new_key_entry("k-2026-01")
    (tmp_path / "cluster.json").write_text(json.dumps(
        {"secret": base64.b64encode(old.encode()).decode(), "calls": []}))
    stub = tmp_path / "bin" / "kubectl"
    stub.parent.mkdir()
    stub.write_text(f"#!{sys.executable}\n{KUBECTL}")
    stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{stub.parent}:{os.environ['PATH']}",
           "KUBECTL_STUB": str(tmp_path)}
    subprocess.run(["bash", "-euo", "pipefail", "-c", _rotation_commands()], env=env,
                   check=True, timeout=60, capture_output=True, text=True)
    calls = json.loads((tmp_path / "cluster.json").read_text())["calls"]
    new = calls[-1].removeprefix("status ")
    assert new.startswith("k-2027-06:") and new != old, calls
    assert calls == [step for ring in (f"{old},{new}", f"{new},{old}", new)
                     for step in ("apply", f"restart {ring}", f"status {ring}")], calls
    assert KeyRing.parse(new).key_ids == ("k-2027-06",)
    keys = [entry.partition(":")[2] for entry in (old, new)]
    argv = [json.loads(f.read_text()) for f in tmp_path.glob("argv-*.json")]
    assert len(argv) == 1 + 4 * 3, argv  # ring(), then each step's four calls
    for args in argv:
        assert not any(key in arg for key in keys for arg in args), args
