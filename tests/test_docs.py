"""The documentation keeps up with the code: every reason code is in docs/errors.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import Reason

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
