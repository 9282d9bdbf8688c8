"""The options tables of the rules pages (docs/rules-*.md) are the engine's option
declarations (engine/variants/*.py, engine/mayi/rules.py) rendered by
``engine.options.options_table``, so a page cannot drift from the rules it documents.

After changing an option, rewrite the tables with ``.venv/bin/python -m tests.test_rules_docs``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.options import options_table
from engine.variants import VARIANTS

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {"classic": "rules-classic.md", "samba": "rules-samba.md",
         "bolivia": "rules-bolivia.md", "bolivia_sevens": "rules-bolivia.md",
         "may_i": "rules-may-i.md"}
BEGIN = "<!-- options of {} (from the engine: python -m tests.test_rules_docs) -->\n"
END = "<!-- end of options -->"


def _block(variant: str) -> re.Pattern[str]:
    return re.compile(re.escape(BEGIN.format(variant)) + r"(.*?)" + re.escape(END), re.S)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_page_lists_the_declared_options(variant: str) -> None:
    """Every variant's page holds one options table, equal to its declarations (names,
    aliases, defaults, values, rule IDs, descriptions)."""
    text = (DOCS / PAGES[variant]).read_text()
    found = _block(variant).findall(text)
    assert len(found) == 1, f"{PAGES[variant]} needs one options block of {variant}"
    assert found[0] == options_table(VARIANTS[variant].OPTIONS)


ENGINE = DOCS.parent / "engine"
# a rule ID as the engine cites it in a refusal's text or metadata: "CL-PILE-7", "BO-C1"
CITED = re.compile(r'"((?:CL|SA|BO|SV|MI)-[A-Z0-9]+(?:-[0-9]+)?)"')


def test_every_rule_a_refusal_names_is_on_a_rules_page() -> None:
    """A refusal's ``ErrorInfo.metadata.rule`` names a rule (docs/api.md, *Errors*): every
    rule ID the engine cites appears on a rules page (docs/rules-*.md), so a client can look
    it up. 23 of them (CL-PILE-7, BO-C1, SA-SEQ-2...) appeared on none."""
    cited = {m.group(1) for path in ENGINE.rglob("*.py") for m in CITED.finditer(path.read_text())}
    pages = " ".join(path.read_text() for path in DOCS.glob("rules-*.md"))
    missing = sorted(r for r in cited if not re.search(rf"\b{re.escape(r)}\b", pages))
    assert len(cited) > 100 and missing == [], missing


def main() -> None:
    """Rewrite every page's options blocks from the declarations."""
    for variant, page in PAGES.items():
        path = DOCS / page
        text = path.read_text()
        block = BEGIN.format(variant) + options_table(VARIANTS[variant].OPTIONS) + END
        new, count = _block(variant).subn(lambda _, b=block: b, text)
        if count != 1:
            raise SystemExit(f"{page}: no options block of {variant} to rewrite")
        path.write_text(new)


if __name__ == "__main__":
    main()
