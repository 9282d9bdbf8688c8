"""The cards a stock draw takes, the canastas a side needs to go out and the most wild
cards in a group, in every view of a game as it was dealt: ListVariants' tables say them
with the default options only, and a game dealt with options that change them (classic
p2_draw_count, canastas_to_go_out, cutthroat; Bolivia's going out and unlimited wild
cards) played by other numbers than a client reading the table would state.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from engine import new_game
from engine.notation import export_position
from engine.rule_counts import rule_counts
from service.api.pb import api
from tests.positions import position
from tests.service.helpers import Call, ok

Counts = tuple[int, int, int]  # draw_count, canastas_to_go_out, wild_limit

# (variant, players, options) -> the counts, options applied, each unlike the table's
CHANGED: list[tuple[str, int, dict[str, str], Counts]] = [
    ("classic", 2, {"p2_draw_count": "3"}, (3, 2, 3)),  # CL-P2-2
    ("classic", 4, {"canastas_to_go_out": "2"}, (1, 2, 3)),  # CL-OUT-1
    ("classic", 3, {"p3_mode": "cutthroat"}, (2, 2, 3)),  # CL-P3
    ("bolivia", 4, {"bolivia.going_out": "hoyle"}, (2, 2, 2)),  # BO-OUT-1
    ("bolivia", 4, {"bolivia.unlimited_wilds_in_groups": "true"}, (2, 0, 18)),
    ("bolivia_sevens", 4, {"bolivia.unlimited_wilds_in_groups": "true"}, (2, 0, 18)),
]


def _counts(view: Any) -> Counts:
    return view.draw_count, view.canastas_to_go_out, view.wild_limit


def _tables(call: Call) -> dict[tuple[str, int], Counts]:
    """ListVariants' counts of each variant and player count (the default options)."""
    listed = ok(call("ListVariants", api.ListVariantsRequest())).variants
    return {(v.id, t.players): _counts(t) for v in listed for t in v.tables}


def _seen(call: Call, variant: str, players: int, options: dict[str, str]) -> set[Counts]:
    """The counts of every view of a new game: the deal's, the host's, a spectator's
    and each seat's."""
    dealt = ok(call("Deal", api.DealRequest(variant=variant, players=players, seed=5,
                                            options=options)))
    views = list(dealt.views)
    for token in (dealt.host_token, None):
        views += ok(call("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=-1),
                         token=token)).views
    for seat, token in enumerate(dealt.seat_tokens):
        views += ok(call("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=seat),
                         token=token)).views
    assert len(views) == 2 * players + 2
    return {_counts(v) for v in views}


def test_every_view_with_the_default_options_says_its_tables_counts(call: Call) -> None:
    """Every variant at every player count: each view states the counts ListVariants'
    table does (May I?: one card, no canastas, no wild cards; Bolivia: nobody goes out)."""
    tables = _tables(call)
    assert tables[("may_i", 4)] == (1, 0, 0) and tables[("bolivia", 4)] == (2, 0, 2)
    for (variant, players), counts in tables.items():
        assert _seen(call, variant, players, {}) == {counts}, (variant, players)


@pytest.mark.parametrize(("variant", "players", "options", "counts"), CHANGED,
                         ids=[f"{v}-{p}-{next(iter(o))}" for v, p, o, _ in CHANGED])
def test_every_view_says_the_counts_its_options_make(
        call: Call, variant: str, players: int, options: dict[str, str],
        counts: Counts) -> None:
    """A game dealt with an option that changes a count: the host, a spectator and each
    seat see the engine's count, not the table's."""
    assert rule_counts(new_game(variant, players, seed=1, options=options).rules) == counts
    assert _tables(call)[(variant, players)] != counts
    assert _seen(call, variant, players, options) == {counts}


def test_the_json_view_names_each_count_zeros_included(http: httpx.Client) -> None:
    """REST: the view's JSON holds drawCount, canastasToGoOut and wildLimit even when 0
    (Bolivia, where nobody goes out), so a client reads them rather than the table."""
    deal = http.post("/v1/deal", json={"variant": "bolivia", "players": 4, "seed": "9",
                                       "options": {"bolivia.unlimited_wilds_in_groups": "true"}})
    assert deal.status_code == 200, deal.text
    for view in deal.json()["views"]:
        assert (view["drawCount"], view["canastasToGoOut"], view["wildLimit"]) == (2, 0, 18)


# (variant, options) -> whether going out needs a sequence canasta (BO-C1), in every view
NEEDS_SEQUENCE: list[tuple[str, dict[str, str], bool]] = [
    ("bolivia", {"bolivia.going_out": "hoyle"}, True),
    ("bolivia_sevens", {"bolivia.going_out": "hoyle"}, True),
    ("bolivia", {}, False),  # nobody goes out (BO-OUT-1)
    ("samba", {}, False),
    ("classic", {}, False),
    ("may_i", {}, False),
]


@pytest.mark.parametrize(("variant", "options", "needs"), NEEDS_SEQUENCE,
                         ids=[f"{v}-{bool(o)}" for v, o, _ in NEEDS_SEQUENCE])
def test_every_view_says_whether_going_out_needs_a_sequence_canasta(
        call: Call, variant: str, options: dict[str, str], needs: bool) -> None:
    """Bolivia with bolivia.going_out hoyle goes out with two canastas, one of them an
    escalera (BO-C1): the view's out_needs_sequence says so, the same for the host, a
    spectator and each seat, where canastas_to_go_out alone (2) told a client nothing of it
    and the web table inferred it from the game's name."""
    dealt = ok(call("Deal", api.DealRequest(variant=variant, players=4, seed=5,
                                            options=options)))
    views = list(dealt.views)
    for seat, token in [(-1, None), *enumerate(dealt.seat_tokens)]:
        views += ok(call("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=seat),
                         token=token)).views
    assert {v.out_needs_sequence for v in views} == {needs}, variant


def test_the_json_view_says_when_going_out_needs_no_sequence(http: httpx.Client) -> None:
    """REST: outNeedsSequence is in the view's JSON when false too."""
    deal = http.post("/v1/deal", json={"variant": "classic", "players": 4, "seed": "9"})
    assert deal.status_code == 200, deal.text
    assert {view["outNeedsSequence"] for view in deal.json()["views"]} == {False}


# (variant, team 0's melds) -> each meld's canasta kind by its label, as its game names and
# scores it
KINDS: list[tuple[str, str, dict[str, str]]] = [
    ("classic", "K@0: KS KH KD KC KS KH KD | Q@0: QS QH QD QC 2S JK QH | 5@0: 5S 5H 5D",
     {"K": "natural", "Q": "mixed", "5": ""}),
    ("samba", "S:5-J@0: 5S 6S 7S 8S 9S TS JS | K@0: KS KH KD KC KS KH 2D",
     {"S:5-J": "samba", "K": "mixed"}),  # SA-SEQ-5
    ("bolivia", "S:5-J@0: 5S 6S 7S 8S 9S TS JS | W@0: JK JK 2S 2H 2D 2C 2H | "
     "9@0: 9S 9H 9D 9C 9S 9H 9D",
     {"S:5-J": "escalera", "W": "bolivia", "9": "natural"}),  # BO-SEQ-2, BO-WILD-2
    ("bolivia_sevens", "7@0: 7S 7H 7D 7C 7S 7H 7D | S:8-K@0: 8S 9S TS JS QS KS",
     {"7": "natural", "S:8-K": ""}),  # SV-CAN-3: a canasta of sevens is a natural one of rank 7
]


def kinds_position(variant: str, melds: str) -> str:
    """A position of ``variant`` with team 0's ``melds`` (a case of KINDS) on the table,
    exported: shared with the clients' tests of how they name each canasta."""
    return export_position(position(variant, hands={0: "4C 6D 8H"}, melds={0: melds},
                                    opened=[1, 0]))


@pytest.mark.parametrize(("variant", "melds", "kinds"), KINDS, ids=[v for v, _, _ in KINDS])
def test_every_view_names_each_canastas_kind(call: Call, variant: str, melds: str,
                                             kinds: dict[str, str]) -> None:
    """MeldView.canasta said natural or mixed only (a samba and an escalera natural, a
    bolivia mixed), so the web table named a canasta by its meld kind and the game's name.
    canasta_kind names it as the game scores it (SA-SEQ-5, BO-SEQ-2, BO-WILD-2), the same
    for the host, a spectator and each seat: melds on the table are public."""
    imported = ok(call("ImportPosition", api.ImportPositionRequest(
        position=kinds_position(variant, melds))))
    views = list(imported.views)
    for seat, token in [(-1, None), *enumerate(imported.seat_tokens)]:
        views += ok(call("GetView", api.GetViewRequest(snapshot=imported.snapshot, seat=seat),
                         token=token)).views
    assert len(views) == 9
    for view in views:
        assert {m.label: m.canasta_kind for m in view.sides[0].melds} == kinds, variant
