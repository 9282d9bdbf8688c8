"""The match target in every view and table: a client shows the score that ends the game
without writing the rules again (classic's default depends on the player count and
options, so no option default says it; a game dealt with ``target_score`` has its own).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from engine import new_game
from engine.rules import RuleSet
from service.api.pb import api
from tests.service.helpers import Call, ok

# (variant, players, options) -> the score that ends the game, from the rules' tables
TARGETS: list[tuple[str, int, dict[str, str], int]] = [
    ("classic", 2, {}, 5000),
    ("classic", 3, {}, 5000),
    ("classic", 3, {"p3_mode": "cutthroat"}, 7500),
    ("classic", 4, {}, 5000),
    ("classic", 5, {}, 5000),
    ("classic", 6, {}, 10000),
    ("classic", 6, {"p6_teams": "3"}, 7500),
    ("classic", 6, {"p6_mode": "rotation"}, 5000),
    ("classic", 4, {"target_score": "2500"}, 2500),
    ("classic", 6, {"target_score": "3000"}, 3000),
    ("samba", 4, {}, 10000),
    ("samba", 4, {"target_score": "12000"}, 12000),
    ("samba", 4, {"samba.target": "7000"}, 7000),
    ("bolivia", 4, {}, 15000),
    ("bolivia", 4, {"target_score": "20000"}, 20000),
    ("bolivia_sevens", 4, {}, 0),
    ("may_i", 3, {}, 0),
    ("may_i", 4, {}, 0),
    ("may_i", 5, {}, 0),
    ("may_i", 4, {"schedule": "classic7"}, 0),
]


def _engine_target(variant: str, players: int, options: dict[str, str]) -> int:
    """The target the engine plays the game to (0: May I?, whose rules have none)."""
    rules = new_game(variant, players, seed=1, options=options).rules
    return rules.target if isinstance(rules, RuleSet) else 0


@pytest.mark.parametrize(("variant", "players", "options", "target"), TARGETS)
def test_every_view_says_the_games_target(call: Call, variant: str, players: int,
                                          options: dict[str, str], target: int) -> None:
    """CL-GAME-1 (classic: 5000, by table shape 7500 for cutthroat, CL-P3, and six players
    in three teams, CL-P6-2, 10000 for two teams of three, 5000 in the rotation, CL-P6-11;
    or target_score), SA-GAME-1 (Samba: 10000 or target_score, alias samba.target),
    BO-GAME-1 (Bolivia: 15000 or target_score); SV-GAME-1 (Bolivia with sevens: a round of
    four deals) and MI-GAME-1 (May I?: its schedule of deals) have no target, 0. Every
    seat's view of the deal holds the engine's target, options applied, and so does a
    spectator's view of it."""
    assert _engine_target(variant, players, options) == target
    dealt = ok(call("Deal", api.DealRequest(variant=variant, players=players, seed=3,
                                            options=options)))
    assert [v.target_score for v in dealt.views] == [target] * players
    seen = ok(call("GetView", api.GetViewRequest(snapshot=dealt.snapshot, seat=-1),
                   token=dealt.host_token))
    assert [v.target_score for v in seen.views] == [target]


def test_a_spectator_and_every_seat_see_the_target(http: httpx.Client) -> None:
    """CL-GAME-1: the target is public (it is said before the first deal): the host, a
    spectator with no credential and each seat see the one the game was dealt with."""
    deal = http.post("/v1/deal", json={"variant": "classic", "players": 4, "seed": "9",
                                       "options": {"target_score": "2500"}}).json()

    def target(token: str | None, seat: int) -> Any:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        answer = http.post("/v1/view", json={"snapshot": deal["snapshot"], "seat": seat},
                           headers=headers)
        assert answer.status_code == 200, answer.text
        return answer.json()["views"][0]["targetScore"]

    assert target(deal["hostToken"], -1) == target(None, -1) == 2500
    assert [target(token, s) for s, token in enumerate(deal["seatTokens"])] == [2500] * 4


def test_each_table_says_its_default_target(http: httpx.Client) -> None:
    """ListVariants: each table's target with the default options, the one its deal's views
    show (CL-GAME-1: 5000, 10000 for six players in three packs; SA-GAME-1: 10000;
    BO-GAME-1: 15000; SV-GAME-1 and MI-GAME-1: none, 0), so a client can say it before
    dealing."""
    listed = http.get("/v1/variants").json()["variants"]
    got = {(v["id"], t["players"]): t["targetScore"] for v in listed for t in v["tables"]}
    assert got == {(variant, players): target for variant, players, options, target in TARGETS
                   if not options}
    assert got == {key: _engine_target(*key, {}) for key in got}
