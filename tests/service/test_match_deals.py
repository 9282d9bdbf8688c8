"""The deals that end the game in every view and table: in the games a number of deals
ends (Bolivia with sevens, May I?) a client shows "deal 2 of 4" from the view's
``hand_no`` and ``deals`` without writing the rules again (May I?'s ``schedule`` option
sets how many), as ``target_score`` says the score that ends the others
(tests/service/test_match_target.py).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from engine import new_game
from service.api.pb import api
from tests.service.helpers import Call, ok

# (variant, players, options) -> the deals that end the game, from the rules; 0: a score
DEALS: list[tuple[str, int, dict[str, str], int]] = [
    ("classic", 2, {}, 0),
    ("classic", 3, {}, 0),
    ("classic", 4, {}, 0),
    ("classic", 5, {}, 0),
    ("classic", 6, {}, 0),
    ("classic", 4, {"target_score": "2500"}, 0),
    ("samba", 4, {}, 0),
    ("bolivia", 4, {}, 0),
    ("bolivia_sevens", 4, {}, 4),
    ("bolivia_sevens", 4, {"tie_policy": "play_on"}, 4),
    ("may_i", 3, {}, 5),
    ("may_i", 4, {}, 5),
    ("may_i", 5, {}, 5),
    ("may_i", 4, {"schedule": "classic7"}, 7),
    ("may_i", 3, {"schedule": "ss,sr,rr"}, 3),
    ("may_i", 5, {"mayi.schedule": "sss"}, 1),
]


def _engine_deals(variant: str, players: int, options: dict[str, str]) -> int:
    """The deals the engine plays the game for (0: it plays to a score)."""
    return new_game(variant, players, seed=1, options=options).rules.deals


@pytest.mark.parametrize(("variant", "players", "options", "deals"), DEALS)
def test_every_view_says_the_games_deals(call: Call, variant: str, players: int,
                                         options: dict[str, str], deals: int) -> None:
    """SV-GAME-1 (Bolivia with sevens: a round of four deals, another on a tie with
    tie_policy play_on, so still four) and MI-GAME-1 (May I?: the schedule's deals,
    zioncheck5 five, classic7 seven, a custom list its length); 0 in the games a score ends
    (CL-GAME-1, SA-GAME-1, BO-GAME-1). Every seat's view of the deal, the host's and a
    spectator's hold the engine's number, options applied, at the first hand."""
    assert _engine_deals(variant, players, options) == deals
    dealt = ok(call("Deal", api.DealRequest(variant=variant, players=players, seed=3,
                                            options=options)))
    assert [(v.hand_no, v.deals) for v in dealt.views] == [(0, deals)] * players
    for token in (dealt.host_token, None):
        seen = ok(call("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=-1),
                       token=token))
        assert [v.deals for v in seen.views] == [deals]
    for seat, token in enumerate(dealt.seat_tokens):
        mine = ok(call("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=seat),
                       token=token))
        assert [v.deals for v in mine.views] == [deals]


@pytest.mark.parametrize(("header", "options", "hand", "deals"), [
    ("canasta-position 1\nvariant: bolivia_sevens", "-", 2, 4),
    ("mayi-position 1", "schedule=classic7", 5, 7),
], ids=["bolivia_sevens", "may_i"])
def test_a_later_deal_says_its_number_and_the_games_deals(
        call: Call, header: str, options: str, hand: int, deals: int) -> None:
    """A position in a later deal (SV-GAME-1: the third of four; MI-GAME-1: the sixth of
    classic7's seven) keeps the game's deals beside its hand_no in every view."""
    position = "\n".join([header, "players: 4", f"options: {options}", f"hand: {hand}",
                          "dealer: 3", *(f"hand{s}: *11" for s in range(4)), "stock: *", ""])
    imported = ok(call("ImportPosition", api.ImportPositionRequest(position=position)))
    assert [(v.hand_no, v.deals) for v in imported.views] == [(hand, deals)] * 4


def test_a_spectator_and_every_seat_see_the_deals(http: httpx.Client) -> None:
    """MI-GAME-1: the schedule is public (the contracts are announced): the host, a
    spectator with no credential and each seat see the deals of the one dealt."""
    deal = http.post("/v1/deal", json={"variant": "may_i", "players": 4, "seed": "9",
                                       "options": {"schedule": "ss,sr,rr,sss,ssr,srr"}}).json()

    def deals(token: str | None, seat: int) -> Any:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        answer = http.post("/v1/view", json={"snapshot": deal["snapshot"], "seat": seat},
                           headers=headers)
        assert answer.status_code == 200, answer.text
        return answer.json()["views"][0]["deals"]

    assert deals(deal["hostToken"], -1) == deals(None, -1) == 6
    assert [deals(token, s) for s, token in enumerate(deal["seatTokens"])] == [6] * 4


def test_each_table_says_its_default_deals(call: Call) -> None:
    """ListVariants: each table's deals with the default options, the number its deal's
    views show (SV-GAME-1: 4; MI-GAME-1: zioncheck5's 5; 0 where a score ends the game),
    so a client can say it before dealing."""
    listed = ok(call("ListVariants", api.ListVariantsRequest())).variants
    got = {(v.id, t.players): t.deals for v in listed for t in v.tables}
    assert got == {(variant, players): deals for variant, players, options, deals in DEALS
                   if not options}
    assert got == {key: _engine_deals(*key, {}) for key in got}
