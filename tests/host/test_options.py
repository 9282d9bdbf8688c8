"""A table's rule options: ``GET /api/variants`` lists each game's as the rules service's
ListVariants does (the index page builds its form from them), a table's status and each
seat's state name those it was dealt with, and a value the service refuses is its refusal,
a 400 with its reason and message."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.host.hosts import Host, Player, hosting
from tests.service.servers import Running


@pytest.fixture(scope="module")
def host(rules: Running, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Host]:
    db: Path = tmp_path_factory.mktemp("host") / "tables.db"
    with hosting(db, rules.grpc_target) as running:
        yield running


def test_the_games_route_lists_each_games_options(host: Host) -> None:
    """Each game's options, every one ListVariants lists and in its order, with its type,
    default, choices, range, rule and what it does; a default by player count (classic's
    target_score, canastas_to_go_out) as each count's table says it; and no player count
    to offer it at: a rule's section does not bound where its option acts (CL-P6-9's
    black_three_meld_max limits going out at four players too), and the page hid it but at
    six. The route listed the games' names and player counts alone."""
    games = {v["id"]: v for v in httpx.get(f"{host.base}/api/variants", timeout=20).json()}
    for variant in host.client.list_variants().variants:
        listed = games[variant.id]["options"]
        assert [o["name"] for o in listed] == [o.name for o in variant.options], variant.id
        for option, got in zip(variant.options, listed, strict=True):
            assert got["choices"] == list(option.choices), got
            assert (got["minimum"], got["maximum"]) == (option.minimum, option.maximum), got
            assert (got["rule"], got["description"]) == (option.rule, option.description)
    classic = {o["name"]: o for o in games["classic"]["options"]}
    assert classic["target_score"] == {
        "name": "target_score", "type": "int", "default": None,
        "default_by_players": {"2": "5000", "3": "5000", "4": "5000", "5": "5000", "6": "10000"},
        "choices": [], "minimum": 1, "maximum": 1_000_000, "rule": "CL-GAME-1",
        "description": "score that ends the game (default by player count)"}
    assert classic["canastas_to_go_out"]["default_by_players"]["4"] == "1"
    assert classic["p6_mode"] == {
        "name": "p6_mode", "type": "choice", "default": "three_packs",
        "default_by_players": {}, "choices": ["three_packs", "rotation"], "minimum": 0,
        "maximum": 0, "rule": "CL-P6-11", "description": "six-player form"}
    assert classic["black_three_meld_max"]["rule"] == "CL-P6-9"
    assert not any("players" in o for v in games.values() for o in v["options"]), games
    assert classic["penalties"]["type"] == "bool" and classic["penalties"]["default"] == "false"
    schedule = next(o for o in games["may_i"]["options"] if o["name"] == "schedule")
    assert (schedule["default"], schedule["choices"]) == ("zioncheck5", ["zioncheck5", "classic7"])


# a table's game, players and options given, and the options its status names
Case = tuple[str, int, dict[str, Any], dict[str, str]]
TABLES: dict[str, Case] = {
    "none": ("classic", 2, {}, {}),
    "a default": ("classic", 4, {"target_score": 5000}, {}),
    "an alias": ("samba", 4, {"samba.target": 12000}, {"target_score": "12000"}),
    "six": ("classic", 6, {"p6_mode": "rotation", "target_score": "1500", "penalties": True},
            {"p6_mode": "rotation", "target_score": "1500", "penalties": "true"}),
    "may i": ("may_i", 3, {"schedule": "classic7", "ace_wrap": False,
                           "max_buys_per_deal": "none"},
              {"schedule": "classic7", "ace_wrap": "false", "max_buys_per_deal": "none"}),
    # alone, a custom schedule's commas are the line's only separators (docs/records.md)
    "a custom schedule": ("may_i", 3, {"schedule": "ss,sr"}, {"schedule": "ss,sr"}),
}


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES)
def test_a_tables_status_names_its_options(host: Host, table: Case) -> None:
    """A table's status, and its seat's state, name the options it was dealt with that
    differ from the game's defaults, as its record does (an alias under its current name, a
    default left out); a seat could not tell them, a game played to 1500 looking like any."""
    variant, players, options, named = table
    created = host.create(variant, players, dict.fromkeys(range(1, players), "greedy"), options)
    assert created["options"] == named, created
    assert host.status(created["game_id"])["options"] == named
    player = Player(host, created["seats"][0]["link"])
    try:
        assert player.wait(lambda state: True)["options"] == named
    finally:
        player.close()


BAD = {
    "out of range": ({"target_score": 0}, "BAD_OPTION_VALUE"),
    "not digits": ({"target_score": "abc"}, "BAD_OPTION_VALUE"),
    "not a choice": ({"p6_mode": "two_packs"}, "BAD_OPTION_VALUE"),
    "unknown": ({"target": 1500}, "UNKNOWN_OPTION"),
}


@pytest.mark.parametrize(("options", "reason"), BAD.values(), ids=BAD)
def test_an_option_the_service_refuses_is_its_refusal(
        host: Host, options: dict[str, Any], reason: str) -> None:
    """A value the rules service refuses is a 400 with its reason and message, as the index
    page shows them; no table is made."""
    answer = httpx.post(f"{host.base}/api/tables", timeout=20, json={
        "variant": "classic", "players": 6, "bots": {}, "options": options})
    assert answer.status_code == 400, answer.text
    got = answer.json()
    assert got["reason"] == reason and next(iter(options)) in got["message"], got
