"""Forged giants: ImportPosition refuses what play cannot produce, and what it accepts
answers within the documented worst case (docs/operations.md, *Worst cases*).

Sizes are checked here (deterministic); the time of the same calls is a benchmark
(``bench/limits_bench.py`` in ``make bench``), not a test.
"""

from __future__ import annotations

import httpx
import pytest

from service.api.pb import api
from tests.service.helpers import Failure, call_rest, ok
from tests.worst_positions import WORST

MAX_JSON = 256 * 1024


@pytest.mark.parametrize("name", sorted(WORST))
def test_the_largest_accepted_positions_answer_within_bounds(http: httpx.Client,
                                                             name: str) -> None:
    imported = ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(
        position=WORST[name], view_seat=-1)))
    resp = http.post("/v1/legal-moves", json={"snapshot": _b64(imported.snapshot)},
                     headers={"authorization": f"Bearer {imported.host_token}"})
    assert resp.status_code == 200, resp.text
    assert len(resp.json()["moves"]) > 100  # a real worst case, not a trivial position
    assert len(resp.content) < MAX_JSON, (name, len(resp.content))


@pytest.mark.parametrize(("hand", "buys", "why"), [
    ("*83", "0 0 0", "holds 83 cards"),
    ("*12", "0 0 0", "holds 12 cards"),  # ten dealt and one drawn: eleven at most
    ("*14", "4 0 0", "claims 4 buys"),  # over max_buys_per_deal (3)
])
def test_may_i_hands_play_cannot_make_are_refused(http: httpx.Client, hand: str, buys: str,
                                                  why: str) -> None:
    """MI-DEAL-2, MI-BUY-2, MI-BUY-5: the hand of a seat in deal 0 holds the ten dealt, the
    turn's draw and two cards per buy, at most three buys."""
    position = "\n".join(["mayi-position 1", "variant: may_i", "players: 3", "phase: meld",
                          "turn: 0", "drew: stock", f"buys: {buys}", f"hand0: {hand}",
                          "hand1: *1", "hand2: *1", "stock: *", ""])
    got = call_rest(http, "ImportPosition", api.ImportPositionRequest(position=position))
    assert isinstance(got, Failure)
    assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "POSITION_OUT_OF_BOUNDS",
                                                  ["position"])
    assert why in got.message


def test_unlimited_buys_are_capped_at_import_only(http: httpx.Client) -> None:
    """With max_buys_per_deal=none the rules set no bound: ImportPosition still accepts at
    most three buys per seat (a service limit, docs/operations.md)."""
    base = ["mayi-position 1", "variant: may_i", "players: 3",
            "options: max_buys_per_deal=none", "phase: meld", "turn: 0", "drew: stock"]
    fine = base + ["buys: 3 0 0", "hand0: *17", "hand1: *1", "hand2: *1", "stock: *", ""]
    ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(position="\n".join(fine))))
    many = base + ["buys: 30 0 0", "hand0: *83", "hand1: *1", "hand2: *1", "stock: *", ""]
    got = call_rest(http, "ImportPosition", api.ImportPositionRequest(position="\n".join(many)))
    assert isinstance(got, Failure) and got.reason == "POSITION_OUT_OF_BOUNDS"


def _b64(blob: bytes) -> str:
    import base64

    return base64.b64encode(blob).decode()
