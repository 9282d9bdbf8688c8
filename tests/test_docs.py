"""The documentation keeps up with the code: every reason code is in docs/errors.md,
docs/api.md's examples and tables are the contract's (tests/apidoc.py reads them), and
every path a page names is in the tree."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.descriptor import MethodDescriptor

from engine import apply, new_game
from engine.errors import Reason, RuleViolation
from engine.moves import parse_move
from service.api import convert
from service.api.errors import _BAD_INPUT, REQUEST_VIOLATIONS, Category, ServiceReason
from service.api.pb import api, game
from service.ops import metrics
from service.rest import openapi
from service.sealing.snapshot import FORMAT_VERSION, MAGIC
from tests import apidoc

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


def test_errors_md_names_the_samba_code_classic_raises() -> None:
    """*Samba and Bolivia*: classic canasta refuses any ``merge`` with MERGE_NOT_ALLOWED
    (CL-MELD-5). The section said classic never raised its codes; now the code's row names
    the classic rule, and the section's introduction names the code as classic's."""
    meld_phase = apply(new_game("classic", 4, seed=1), parse_move("draw"))
    with pytest.raises(RuleViolation) as refused:
        apply(meld_phase, parse_move("merge K K#2"))
    assert (refused.value.reason, refused.value.rule) == (Reason.MERGE_NOT_ALLOWED, "CL-MELD-5")
    section = (DOCS / "errors.md").read_text().split("## Samba and Bolivia", 1)[1]
    rules = {row[0].strip("`"): row[2] for row in apidoc.table(section, "| Reason |")}
    assert {code for code, rule in rules.items() if "CL-" in rule} == {"MERGE_NOT_ALLOWED"}
    assert "CL-MELD-5" in rules["MERGE_NOT_ALLOWED"]
    intro = section.split("\n|", 1)[0]
    assert re.findall(r"classic canasta raises only `([A-Z_]+)`", intro) == ["MERGE_NOT_ALLOWED"]


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


# --- docs/api.md against the contract (tests/service/test_api_md.py: against the service) ---

SERVICE = api.DESCRIPTOR.services_by_name["CanastaEngine"]
_ROUTES = {openapi.http_rule(m): m for m in SERVICE.methods}
_BY_SECTION = {"ScoreHand": SERVICE.methods_by_name["ScoreHand"]}


def _method_of(example: apidoc.Example) -> MethodDescriptor | None:
    if example.path:
        return _ROUTES[(example.verb, example.path)]
    return _BY_SECTION.get(example.section)


def test_api_md_examples_are_read() -> None:
    """The reader finds what the document shows: ListVariants, Deal, LegalMoves, ApplyMove,
    GetView and SuggestMove twice (each with its answer), ScoreHand's answer and an error
    body."""
    calls = [(e.path, e.credential, e.answer is not None) for e in apidoc.examples() if e.path]
    assert calls == [("/v1/variants", "", True), ("/v1/deal", "", True),
                     ("/v1/legal-moves", "seat 0's token", True),
                     ("/v1/apply-move", "seat 0's token", True),
                     ("/v1/view", "seat 0's token", True), ("/v1/view", "seat 0's token", True),
                     ("/v1/suggest-move", "seat 0's token", True),
                     ("/v1/suggest-move", "seat 0's token", True)]
    assert [e.section for e in apidoc.examples() if not e.path] == ["ScoreHand", "Errors"]


@pytest.mark.parametrize("example", apidoc.examples(),
                         ids=lambda e: f"{e.section}:{e.path or 'answer'}")
def test_api_md_examples_name_the_fields_of_their_messages(example: apidoc.Example) -> None:
    """Every key an example request or answer shows is a field of its message, its value
    of the JSON type the proto3 mapping gives it (64-bit integers as strings, enums by
    name)."""
    method = _method_of(example)
    if method is None:  # the error body: google.rpc.Status, checked live
        return
    if example.request is not None:
        assert not apidoc.unknown_fields(example.request, method.input_type)
    if example.answer is not None:
        assert not apidoc.unknown_fields(example.answer, method.output_type)


def _values(node: Any, key: str) -> list[Any]:
    """Every value of ``key`` anywhere in a JSON value."""
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == key] + [
            found for v in node.values() for found in _values(v, key)]
    if isinstance(node, list):
        return [found for item in node for found in _values(item, key)]
    return []


def test_api_md_snapshots_are_of_the_format_the_service_seals() -> None:
    """A snapshot shown begins as every snapshot the service seals now does (its magic
    and format version, ``Q1MC``), and a header shown has that ``formatVersion``."""
    prefix = base64.b64encode(MAGIC + bytes((FORMAT_VERSION,)))[:4].decode()
    shown = [v for e in apidoc.examples() for part in (e.request, e.answer)
             for v in _values(part, "snapshot") if v != apidoc.MORE]
    assert shown and all(v.startswith(prefix) for v in shown), (prefix, shown)
    versions = [v for e in apidoc.examples() for v in _values(e.answer, "formatVersion")]
    assert versions and set(versions) == {FORMAT_VERSION}


def test_api_md_score_example_adds_up() -> None:
    """``total = base + canastaBonus + goingOut + redThreePoints - inHand - penalties``, as
    the document says below it."""
    score = next(e.answer for e in apidoc.examples() if e.section == "ScoreHand")
    assert score is not None
    assert "total = base + canastaBonus + goingOut + redThreePoints - inHand - penalties" in (
        apidoc.text())
    for side in score["sides"]:
        if side == apidoc.MORE:
            continue
        b = side["breakdown"]
        assert side["total"] == (b["base"] + b["canastaBonus"] + b["goingOut"]
                                 + b["redThreePoints"] - b["inHand"] - b["penalties"]), side


def _move_rows() -> list[tuple[str, str, str]]:
    """(arm, typed JSON, text) of each example in docs/api.md's table of moves."""
    rows = []
    for arm, typed, texts in apidoc.table(apidoc.text(), "| Typed arm | JSON | Text form |"):
        jsons = re.findall(r"`(\{.*?\})`", typed)
        words = re.findall(r"`([^`]+)`", texts)
        if len(jsons) == 1 and words == ["yes", "no"]:  # {"yes": true} is `yes`
            words = words[:1]
        assert len(jsons) == len(words), (arm, jsons, words)
        rows += [(arm.strip("`"), j, w) for j, w in zip(jsons, words, strict=True)]
    return rows


@pytest.mark.parametrize(("arm", "typed", "words"), _move_rows())
def test_api_md_moves_table_pairs_each_typed_move_with_its_text(arm: str, typed: str,
                                                                 words: str) -> None:
    """Each typed move of the table is its arm, reads as the same move as its text form,
    and answers write it with that text (the request the table shows is accepted with
    both forms: they agree)."""
    message = json_format.Parse(typed, game.Move())
    assert message.WhichOneof("kind") == arm
    move = convert.move_from_pb(message)
    assert move == parse_move(words)
    assert convert.move_json(move)["text"] == words
    message.text = words
    assert convert.move_from_pb(message) == move


def test_api_md_rpc_table_is_the_service() -> None:
    """Every RPC of canasta.v1.CanastaEngine, with the route its google.api.http rule
    gives, and nothing else."""
    rows = apidoc.table(apidoc.text(), "| RPC | REST | What it does |")
    listed = {row[0].strip("`"): tuple(row[1].strip("`").split(" ", 1)) for row in rows}
    assert listed == {m.name: openapi.http_rule(m) for m in SERVICE.methods}


def test_api_md_errors_table_names_only_real_reasons() -> None:
    """Every code in the last column of the table of errors is a reason the service or the
    engine sends (the reverse, every reason there, is checked above)."""
    real = {r.value for r in ServiceReason} | {r.value for r in Reason}
    assert _api_errors_table() - real == set()


def test_api_md_categories_are_the_service() -> None:
    """The table of ``metadata.category`` lists exactly the service's categories, with the
    gRPC code each of its reasons is sent with (service/api/errors.py)."""
    rows = apidoc.table(apidoc.text(), "| `category` | What it means; what a client does |")
    documented = {row[0].strip("`"): set(re.findall(r"`([A-Z_]+)`", row[2])) for row in rows}
    assert set(documented) == {c.value for c in Category}
    assert documented["rule"] == {"FAILED_PRECONDITION"}
    for name, codes in documented.items():
        assert codes <= {c.name for c in grpc.StatusCode}, (name, codes)


def test_api_md_settings_are_the_service() -> None:
    """Every ``CANASTA_*`` setting the document names is one the README's *Configuration*
    lists (the settings the service reads)."""
    readme = (DOCS.parent / "README.md").read_text()
    configured = set(re.findall(r"^\| `(CANASTA_[A-Z0-9_]+)` \|", readme, flags=re.MULTILINE))
    named = set(re.findall(r"\b(CANASTA_[A-Z0-9_]+)\b", apidoc.text()))
    assert configured and named - configured == set()


def test_api_md_metrics_are_the_service() -> None:
    """Every metric the document lists is one the service exports."""
    section = apidoc.text().split("## Health, readiness, metrics", 1)[1].split("\n## ", 1)[0]
    named = {n for n in re.findall(r"`([a-z_]+)(?:\{[^}`]*\})?`", section)
             if n.startswith(("grpc_server_", "http_", "canasta_"))}
    exported = set(re.findall(r"^# TYPE (\S+) ", metrics.exposition().decode(), re.MULTILINE))
    exported |= {n + "_total" for n in exported}  # a counter's TYPE line omits _total
    assert len(named) > 10 and named - exported == set()


ROOT = DOCS.parent
# What a page may name that only a build makes (git-ignored): the compiled engine, the
# generated code (gen/; the Go SDK's gen/canasta/v1 is under clients/go), the browser
# test's screenshots.
BUILT = ("engine/_native", "gen/", "tests/artifacts/")
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
_TICKED = re.compile(r"`([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*)`")


def _named_paths(page: Path) -> list[str]:
    """The files and folders a page names: its relative links, from its folder, and the
    paths in code spans that start at a top-level folder of the repository, from the root.
    Version tags (``clients/vX.Y.Z``) and built files are not paths of the tree."""
    text = page.read_text()
    named = [str((page.parent / link).resolve().relative_to(ROOT)) for link in
             _LINK.findall(text) if not link.startswith(("http:", "https:", "mailto:"))]
    top = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")}
    named += [span.rstrip(".,:;") for span in _TICKED.findall(text)
              if span.split("/", 1)[0] in top and "vX.Y.Z" not in span]
    return [p for p in named if not p.startswith(BUILT)]


_PAGES = sorted(p for p in ROOT.rglob("*.md") if p.name != "CHANGELOG.md"
                and not {"node_modules", ".venv", ".cache", "gen"} & set(p.parts))


@pytest.mark.parametrize("page", _PAGES, ids=[str(p.relative_to(ROOT)) for p in _PAGES])
def test_every_path_a_page_names_exists(page: Path) -> None:
    """README, docs/ and the READMEs of clients/ and examples/ send a reader to files that
    are there (the changelog keeps the names each version had)."""
    missing = [p for p in _named_paths(page) if not (ROOT / p).exists()]
    assert not missing, f"{page.relative_to(ROOT)} names paths that do not exist: {missing}"


_SECTION_NAMED = re.compile(r"\*([A-Z][^*\n]*)\* (below|above)")
_SECTION_TITLE = re.compile(r"^#+ (.+)$|^\*\*([^*]+?)\.?\*\*", re.MULTILINE)


@pytest.mark.parametrize("page", _PAGES, ids=[str(p.relative_to(ROOT)) for p in _PAGES])
def test_every_section_a_page_sends_below_or_above_is_there(page: Path) -> None:
    """``*Name* below`` (or ``above``) sends a reader to a section of the same page: a
    heading, or a paragraph's bold lead, that starts with the name, on that side of it
    (docs/api.md sent readers of ``cardPoints`` to a *ListVariants* section it did not have)."""
    text = page.read_text()
    titles = [(m.start(), m[1] or m[2]) for m in _SECTION_TITLE.finditer(text)]
    lost = [f"*{m[1]}* {m[2]}" for m in _SECTION_NAMED.finditer(text)
            if not any(title.startswith(m[1]) and (at > m.start()) == (m[2] == "below")
                       for at, title in titles)]
    assert not lost, f"{page.relative_to(ROOT)} names sections it does not have: {lost}"
