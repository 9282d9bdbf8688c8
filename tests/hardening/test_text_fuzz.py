"""Fuzzing the two text readers, positions (ImportPosition) and game records
(ExportRecord), with real texts damaged line by line and word by word.

Random text rarely gets past a reader's first line; these start from texts play
wrote (every variant and player count, docs/notation.md and docs/records.md) and
change one to three lines or words, with numbers the API cannot carry among the
replacements. Whatever the text, the call answers or refuses with a typed reason,
never ``INTERNAL``. A position that is read back must round-trip as play's own do
(its export, imported again, exports the same text and lists the same moves), and
every call a host and a seat make on it answers without ``INTERNAL``. Such a fuzz
found a result line naming seat 2^31, which was read and then broke every answer with
a view, and an empty meld whose export did not read back (tests/test_notation_lines.py
now pins both).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import grpc
import pytest
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.notation import export_position
from service.api.core import Call, Core
from service.api.errors import ServiceError
from service.api.pb import api
from service.sealing.keys import KeyRing, new_key_entry
from service.sealing.snapshot import Sealer
from tests.hardening.pool import EXAMPLES, states

CORE = Core(Sealer(KeyRing.parse(new_key_entry("text-fuzz-1"))))
ANYONE = Call()
POSITIONS = [export_position(s) for s in states(13)[::2]]
# what a damaged word may become: other words of the texts, and numbers at the edges
NUMBERS = ["-1", "-2", "0", "1", "2", "3", "4", "5", "6", "7", "99", "2147483647",
           "2147483648", "-2147483649", "18446744073709551616", "1e3", "x", "-", "*", ""]
WORDS = sorted({w for text in POSITIONS for w in text.split()})


def bearer(token: str) -> Call:
    return Call(authorization=(f"Bearer {token}",))


def answer(method: str, request: Message, call: Call, outcomes: Counter[str]) -> Any:
    """The answer, or None for a typed refusal; an INTERNAL fails the test."""
    try:
        got = CORE.handle(method, request, call)
    except ServiceError as err:
        assert err.code != grpc.StatusCode.INTERNAL, (method, request)
        outcomes[err.reason] += 1
        return None
    outcomes["ok"] += 1
    return got


def _records() -> list[tuple[bytes, str, str]]:
    """(snapshot, record, host token) of a few games played through the API at random."""
    rng = random.Random(13)
    out = []
    for variant, players in [("classic", 2), ("classic", 4), ("samba", 4), ("bolivia", 4),
                             ("bolivia_sevens", 4), ("may_i", 3)]:
        dealt = CORE.handle("Deal", api.DealRequest(variant=variant, players=players, seed=7),
                            ANYONE)
        host = bearer(dealt.host_token)
        snap = dealt.snapshot
        record = CORE.handle("ExportRecord", api.ExportRecordRequest(snapshot=snap), host).record
        for _ in range(rng.randrange(20, 120)):
            moves = CORE.handle("LegalMoves", api.LegalMovesRequest(snapshot=snap), host).moves
            if not moves:
                break
            played = CORE.handle("ApplyMove", api.ApplyMoveRequest(
                snapshot=snap, move=rng.choice(list(moves))), host)
            record += f"{played.seat} {played.move.text}\n"
            snap = played.snapshot
        out.append((snap, record, dealt.host_token))
    return out


RECORDS = _records()


@st.composite
def damaged(draw: st.DrawFn, texts: list[str]) -> str:
    """One of ``texts`` with one to three lines or words deleted, repeated, moved,
    replaced or cut off."""
    lines = draw(st.sampled_from(texts)).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        kind = draw(st.sampled_from(["drop", "repeat", "swap", "word", "number",
                                     "drop_word", "add_word", "cut", "foreign"]))
        words = lines[at].split(" ") if lines else [""]
        if kind == "drop" and lines:
            del lines[at]
        elif kind == "repeat" and lines:
            lines.insert(at, draw(st.sampled_from(lines)))
        elif kind == "swap" and lines:
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "word" and lines:
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(WORDS))
            lines[at] = " ".join(words)
        elif kind == "number" and lines:  # a number of the line, if it has one
            numbers = [i for i, w in enumerate(words) if w.lstrip("-").isdigit()]
            words[draw(st.sampled_from(numbers or range(len(words))))] = draw(
                st.sampled_from(NUMBERS))
            lines[at] = " ".join(words)
        elif kind == "drop_word" and len(words) > 1:
            del words[draw(st.integers(0, len(words) - 1))]
            lines[at] = " ".join(words)
        elif kind == "add_word" and lines:
            words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(WORDS)))
            lines[at] = " ".join(words)
        elif kind == "cut":
            text = "\n".join(lines)
            lines = text[:draw(st.integers(0, len(text)))].split("\n")
        elif kind == "foreign":  # a line of another text, of the same game or not
            lines.insert(at, draw(st.sampled_from(draw(st.sampled_from(texts)).split("\n"))))
    return "\n".join(lines)


def _play_on(imported: api.ImportPositionResponse, outcomes: Counter[str]) -> None:
    """The round trip, then every call a host and a seat make on the game read."""
    host = bearer(imported.host_token)
    exported = answer("ExportPosition", api.ExportPositionRequest(snapshot=imported.snapshot),
                      host, outcomes)
    again = answer("ImportPosition", api.ImportPositionRequest(position=exported.position),
                   ANYONE, outcomes)
    assert again is not None, exported.position  # an export always reads back
    assert answer("ExportPosition", api.ExportPositionRequest(snapshot=again.snapshot),
                  bearer(again.host_token), outcomes).position == exported.position
    listed = answer("LegalMoves", api.LegalMovesRequest(snapshot=imported.snapshot), host,
                    outcomes)
    relisted = answer("LegalMoves", api.LegalMovesRequest(snapshot=again.snapshot),
                      bearer(again.host_token), outcomes)
    assert (listed is None) == (relisted is None)
    if listed is not None:
        assert [m.text for m in listed.moves] == [m.text for m in relisted.moves]
    snap = imported.snapshot
    seat = bearer(imported.seat_tokens[0])
    for request, call in [
        (api.ScoreHandRequest(snapshot=snap), host), (api.GetViewRequest(snapshot=snap), host),
        (api.ExportRecordRequest(snapshot=snap), host),
        (api.SuggestMoveRequest(snapshot=snap, level="greedy"), host),
        (api.NextDealRequest(snapshot=snap), host),
        (api.GetViewRequest(snapshot=snap), seat), (api.LegalMovesRequest(snapshot=snap), seat),
        (api.ScoreHandRequest(snapshot=snap), seat),
    ]:
        answer(type(request).__name__.removesuffix("Request"), request, call, outcomes)
    for move in list(listed.moves)[:3] if listed is not None else []:
        answer("ApplyMove", api.ApplyMoveRequest(snapshot=snap, move=move), host, outcomes)


def _fuzz(strategy: st.SearchStrategy[Any], check: Any, examples: int) -> Counter[str]:
    outcomes: Counter[str] = Counter()

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def fuzz(case: Any) -> None:
        check(case, outcomes)

    fuzz()
    return outcomes


def test_damaged_positions_get_a_typed_answer() -> None:
    def check(text: str, outcomes: Counter[str]) -> None:
        imported = answer("ImportPosition", api.ImportPositionRequest(position=text), ANYONE,
                          outcomes)
        if imported is not None:
            outcomes["read"] += 1
            _play_on(imported, outcomes)

    outcomes = _fuzz(damaged(POSITIONS), check, 10 * EXAMPLES)
    # the refusals are earned, and some damage still reads: both paths ran
    assert outcomes["BAD_NOTATION"] > 0 and outcomes["read"] > 0, outcomes


@pytest.mark.parametrize("view_seat", [None, 1, -1])
def test_damaged_records_get_a_typed_answer(view_seat: int | None) -> None:
    by_record = {record: (snap, token) for snap, record, token in RECORDS}

    def check(case: tuple[str, str], outcomes: Counter[str]) -> None:
        original, text = case
        snap, token = by_record[original]
        request = api.ExportRecordRequest(snapshot=snap, record=text)
        if view_seat is not None:
            request.view_seat = view_seat
        answer("ExportRecord", request, bearer(token), outcomes)

    texts = list(by_record)
    cases = st.sampled_from(texts).flatmap(lambda r: st.tuples(st.just(r), damaged([r])))
    outcomes = _fuzz(cases, check, 3 * EXAMPLES)
    assert sum(n for reason, n in outcomes.items() if reason != "ok") > 0, outcomes
