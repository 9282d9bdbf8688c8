"""Render k8s/ with the real kustomize (``make kustomize-setup`` installs the pinned release
into .cache/tools/bin; a ``kustomize`` on PATH is used otherwise)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PINNED = ROOT / ".cache" / "tools" / "bin" / "kustomize"
Resource = dict[str, Any]


def binary() -> str:
    """The kustomize to run; fails the test with the command that installs it."""
    found = str(PINNED) if PINNED.exists() else shutil.which("kustomize")
    if found is None:
        pytest.fail("kustomize is not installed: run `make kustomize-setup`")
    return found


def render(folder: Path) -> list[Resource]:
    """``kustomize build folder``, as a list of resources."""
    run = subprocess.run([binary(), "build", str(folder)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return [r for r in yaml.safe_load_all(run.stdout) if r]
