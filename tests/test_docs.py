"""The documentation keeps up with the code: every reason code is in docs/errors.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import Reason
from service.api.errors import _BAD_INPUT, REQUEST_VIOLATIONS, ServiceReason

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _catalogued() -> set[str]:
    """Codes that head a row of a table in docs/errors.md: ``| `CODE` | meaning | ...``."""
    text = (DOCS / "errors.md").read_text()
    return set(re.findall(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|", text, flags=re.MULTILINE))


@pytest.mark.parametrize("reason", list(Reason), ids=[r.value for r in Reason])
def test_reason_is_documented(reason: Reason) -> None:
    assert reason.value in _catalogued(), f"add {reason.value} to docs/errors.md"


def test_no_stale_reason_in_docs() -> None:
    """Every code the catalogue describes still exists."""
    assert _catalogued() <= {r.value for r in Reason}


@pytest.mark.parametrize("name", ["engine.md", "notation.md", "errors.md"])
def test_doc_exists(name: str) -> None:
    assert (DOCS / name).read_text().strip()


def _api_errors_table() -> set[str]:
    """Codes named in the last column of docs/api.md's table of errors."""
    text = (DOCS / "api.md").read_text()
    rows = re.findall(r"^\|(.*)\|\s*$", text.split("| Situation | gRPC code |", 1)[1]
                      .split("\n\n", 1)[0], flags=re.MULTILINE)
    return {code for row in rows for code in re.findall(r"`([A-Z][A-Z0-9_]*)`",
                                                         row.rsplit("|", 1)[-1])}


def test_every_reason_of_the_service_is_in_the_api_errors_table() -> None:
    """docs/api.md, *Errors*, gives each reason's status: the service's own reasons and
    the engine's malformed-input ones (docs/errors.md lists the engine's alone)."""
    missing = {r.value for r in ServiceReason} | {str(r) for r in _BAD_INPUT} | {
        r.value for r in REQUEST_VIOLATIONS}
    assert not missing - _api_errors_table(), f"add to docs/api.md: {missing - _api_errors_table()}"
