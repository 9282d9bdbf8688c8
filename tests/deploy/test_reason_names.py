"""The alert rules, the dashboard and the operator docs name only reasons the service can
answer: an alert or a runbook about a reason that does not exist (once ``SNAPSHOT_EXPIRED``)
sends the on-call after something that never happens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import Reason
from service.api.errors import ServiceReason
from service.ops.config import Settings

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = {r.value for r in Reason} | {r.value for r in ServiceReason}
# upper-case words in those files that are not reasons: settings, gRPC codes
SETTINGS = Settings.env_names()
CODE_NAMES = {"INVALID_ARGUMENT", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED",
              "DEADLINE_EXCEEDED", "PERMISSION_DENIED", "ALREADY_EXISTS", "NOT_FOUND",
              "OUT_OF_RANGE", "DATA_LOSS"}
WORD = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
# in prose, reasons are written in backticks with one of the service's prefixes
DOC_REASON = re.compile(r"`((?:SNAPSHOT|CREDENTIAL|REQUEST|SEAT|EXPORT|TOO)_[A-Z0-9_]+)`")


def _files(*patterns: str) -> list[Path]:
    found = sorted(p for pattern in patterns for p in ROOT.glob(pattern))
    assert found, patterns
    return found


@pytest.mark.parametrize("path", _files("deploy/prometheus/*.yaml", "deploy/grafana/*.json"),
                         ids=lambda p: p.name)
def test_alerts_and_dashboards_name_real_reasons(path: Path) -> None:
    words = set(WORD.findall(path.read_text())) - SETTINGS - CODE_NAMES
    assert words <= CATALOGUE, sorted(words - CATALOGUE)


@pytest.mark.parametrize("path", _files("docs/*.md", "README.md"), ids=lambda p: p.name)
def test_docs_name_real_reasons(path: Path) -> None:
    named = set(DOC_REASON.findall(path.read_text()))
    assert named <= CATALOGUE, sorted(named - CATALOGUE)
