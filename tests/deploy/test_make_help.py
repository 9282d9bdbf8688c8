"""`make help` lists every target a user can call, each with its one-line note."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = (ROOT / "Makefile").read_text()


def _phony() -> set[str]:
    text = re.search(r"^\.PHONY:(.*?)(?<!\\)\n", MAKEFILE, re.MULTILINE | re.DOTALL)
    assert text, "the Makefile declares its targets .PHONY"
    return set(text.group(1).replace("\\\n", " ").split())


def _help() -> dict[str, str]:
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    out = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return dict(re.findall(r"^  make (\S+) +(.+)$", out, re.MULTILINE))


def test_help_lists_every_phony_target_with_a_note() -> None:
    listed = _help()
    assert set(listed) == _phony()
    assert all(note.strip() for note in listed.values())


def test_every_make_target_the_readme_names_is_in_help() -> None:
    named = set(re.findall(r"`make (?:[A-Z_]+=\S+ )*([a-z][a-z-]*)", (ROOT / "README.md").read_text()))
    assert named, "the README names its make targets"
    assert named <= set(_help())
