"""Rule option values are read as written over the API too, on gRPC and on REST: Deal took
``{"target_score": "+1500"}`` (and ' 1500', '1_500', '01500', '١٥٠٠') as 1500, a bool option
yes/1/TRUE/' true', a choice with spaces; a position's or a record's ``options:`` line
likewise, so one position had several texts (engine/options.py)."""

from __future__ import annotations

import pytest

from engine import records
from engine.game import new_game
from engine.notation import export_position
from service.api.pb import api, game
from tests.service.helpers import Call, Failure, ok
from tests.test_option_values import INT_TWINS, LINE_TWINS

DEAL_TWINS = [
    *(("classic", 2, "target_score", t) for t in INT_TWINS),
    *(("classic", 2, "penalties", t) for t in ["yes", "1", "TRUE", " true"]),
    *(("classic", 2, "tie_policy", t) for t in [" draw", "draw "]),
    ("may_i", 3, "schedule", "rr, ss"), ("may_i", 3, "max_buys_per_deal", "NONE"),
]


def refused(got: object, field: str, name: str) -> None:
    assert isinstance(got, Failure), f"{got} was accepted"
    assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "BAD_OPTION_VALUE",
                                                  [field]), got
    assert f"option {name} " in got.message, got.message


@pytest.mark.parametrize(("variant", "players", "name", "text"), DEAL_TWINS)
def test_a_deal_option_not_as_written_is_refused(call: Call, variant: str, players: int,
                                                 name: str, text: str) -> None:
    got = call("Deal", api.DealRequest(variant=variant, players=players, seed=5,
                                       options={name: text}))
    refused(got, f"options.{name}", name)


def test_deal_options_as_written_are_read(call: Call) -> None:
    """The written forms: digits, true/false, a listed choice; the position says them."""
    dealt = ok(call("Deal", api.DealRequest(variant="classic", players=2, seed=5, options={
        "target_score": "1500", "penalties": "true", "tie_policy": "draw"})))
    assert dealt.views[0].target_score == 1500
    position = ok(call("ExportPosition", api.ExportPositionRequest(snapshot=dealt.snapshot),
                       dealt.host_token)).position
    assert "\noptions: penalties=true,target_score=1500,tie_policy=draw\n" in position


CANASTA_LINE = "options: target_score=1500"
MAYI_LINE = "options: turn_upcard=true"
POSITION_TWINS = [  # (variant, the line written, a twin of it, the option refused)
    *(("classic", CANASTA_LINE, f"options: target_score={t}", "target_score")
      for t in LINE_TWINS),
    ("classic", CANASTA_LINE, "options: penalties=yes,target_score=1500", "penalties"),
    ("may_i", MAYI_LINE, "options: turn_upcard=yes", "turn_upcard"),
    ("may_i", MAYI_LINE, "options: turn_upcard=1", "turn_upcard"),
    ("may_i", MAYI_LINE, "options: turn_upcard=true; buy_penalty_cards=+2", "buy_penalty_cards"),
]


def _position(variant: str) -> str:
    if variant == "may_i":
        return export_position(new_game("may_i", 3, seed=5, options={"turn_upcard": True}))
    return export_position(new_game("classic", 2, seed=5, options={"target_score": 1500}))


@pytest.mark.parametrize(("variant", "line", "twin", "name"), POSITION_TWINS)
def test_a_position_option_not_as_written_is_refused(call: Call, variant: str, line: str,
                                                     twin: str, name: str) -> None:
    text = _position(variant)
    assert f"\n{line}\n" in text
    ok(call("ImportPosition", api.ImportPositionRequest(position=text)))
    got = call("ImportPosition", api.ImportPositionRequest(position=text.replace(line, twin)))
    refused(got, "position", name)


@pytest.mark.parametrize(("line", "twin"), [("target_score=1500", "target_score=+1500"),
                                            ("penalties=true", "penalties=yes")])
def test_a_record_option_not_as_written_is_refused(call: Call, line: str, twin: str) -> None:
    """ExportRecord replays the caller's record: its options line is read as written."""
    dealt = ok(call("Deal", api.DealRequest(variant="classic", players=2, seed=5, options={
        "target_score": "1500", "penalties": "true"})))
    record = ok(call("ExportRecord", api.ExportRecordRequest(snapshot=dealt.snapshot),
                     dealt.host_token)).record
    assert "\noptions: penalties=true,target_score=1500\n" in record
    assert records.parse(record).options == "penalties=true,target_score=1500"
    ok(call("ExportRecord", api.ExportRecordRequest(snapshot=dealt.snapshot, record=record),
            dealt.host_token))
    got = call("ExportRecord", api.ExportRecordRequest(snapshot=dealt.snapshot,
                                                       record=record.replace(line, twin)),
               dealt.host_token)
    refused(got, "record", line.split("=")[0])


def test_every_listed_default_deals_as_the_default(call: Call) -> None:
    """Each option's default as ListVariants writes it is read back by Deal: the game is
    the one dealt with no options (the same first view of every seat)."""
    for variant in ok(call("ListVariants", api.ListVariantsRequest())).variants:
        defaults = {o.name: o.default_value for o in variant.options
                    if o.HasField("default_value")}
        assert len(defaults) >= len(variant.options) - 2, variant.id  # table-derived ones
        plain, given = (ok(call("Deal", api.DealRequest(
            variant=variant.id, players=variant.min_players, seed=5, options=options)))
            for options in ({}, defaults))
        assert list(given.views) == list(plain.views), variant.id



def test_every_listed_integer_range_is_the_one_deal_takes(call: Call) -> None:
    """An integer option's ``minimum`` and ``maximum`` in ListVariants are what Deal takes,
    at every player count: both ends deal, one past either is BAD_OPTION_VALUE. It listed
    1,000,000 as the most for p6_teams (2 or 3), black_three_meld_max (3 to 6) and
    buy_penalty_cards (1 or 2), and refused every value past their true range."""
    for variant in ok(call("ListVariants", api.ListVariantsRequest())).variants:
        ranges = [(o.name, o.minimum, o.maximum) for o in variant.options
                  if o.type == game.OPTION_TYPE_INT]
        for players in range(variant.min_players, variant.max_players + 1):
            for name, low, high in ranges:
                for value in (low - 1, low, high, high + 1):
                    if value < 0:
                        continue  # a sign is no option text (DEAL_TWINS)
                    got = call("Deal", api.DealRequest(variant=variant.id, players=players,
                                                       seed=5, options={name: str(value)}))
                    if low <= value <= high:
                        ok(got)
                    else:
                        refused(got, f"options.{name}", name)
