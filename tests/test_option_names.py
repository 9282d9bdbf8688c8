"""One name for the options every game shares (CL-GAME-1/4, SA-GAME-1, BO-GAME-1,
SV-GAME-1): ``target_score`` and ``tie_policy``, with the names the variants used before
accepted as aliases (engine/options.py)."""

from __future__ import annotations

import pytest

from engine import Phase, Reason, State, rules_for
from engine.codec import decode_state, encode_state
from engine.errors import BadInput
from engine.game import new_game
from engine.options import SHARED, TARGET_SCORE, TIE_POLICY
from engine.variants import catalogue
from tests.positions import play, position

TARGETS = {"classic": "CL-GAME-1", "samba": "SA-GAME-1", "bolivia": "BO-GAME-1"}
TIES = {"classic": "CL-GAME-4", "samba": "SA-GAME-1", "bolivia": "BO-GAME-1",
        "bolivia_sevens": "SV-GAME-1"}


def test_shared_options_have_one_name_in_every_game() -> None:
    """CL-GAME-1/4, SA-GAME-1, BO-GAME-1, SV-GAME-1: the games with a target publish it as
    target_score, the games with a tie rule as tie_policy, each with its game's rule ID; no
    variant publishes another name for either (May I? has neither: MI-GAME-2)."""
    for info in catalogue():
        by_name = {o.name: o for o in info.options}
        assert (TARGET_SCORE in by_name) == (info.id in TARGETS), info.id
        assert (TIE_POLICY in by_name) == (info.id in TIES), info.id
        if info.id in TARGETS:
            assert by_name[TARGET_SCORE].rule == TARGETS[info.id]
        if info.id in TIES:
            assert by_name[TIE_POLICY].rule == TIES[info.id]
            assert by_name[TIE_POLICY].choices == ("play_on", "draw")
        assert not any(o.name.endswith(".target") or "tiebreak" in o.name
                       for o in info.options), info.id
    assert SHARED == (TARGET_SCORE, TIE_POLICY)


@pytest.mark.parametrize(("variant", "old"), [("samba", "samba.target"),
                                              ("bolivia", "bolivia.target")])
def test_former_target_names_are_aliases(variant: str, old: str) -> None:
    """SA-GAME-1, BO-GAME-1: the former per-variant target name sets target_score, and the
    rule set records it under the shared name."""
    new = rules_for(variant, 4, {TARGET_SCORE: 1500})
    assert rules_for(variant, 4, {old: 1500}) == new
    assert rules_for(variant, 4, {f"opt.{old}": "1500"}) == new
    assert new.target == 1500
    assert dict(new.options)[TARGET_SCORE] == 1500 and old not in dict(new.options)


@pytest.mark.parametrize(("old", "policy"), [(True, "play_on"), ("false", "draw")])
def test_former_sevens_tiebreak_is_an_alias(old: object, policy: str) -> None:
    """SV-GAME-1: sv.tiebreak_extra_deal (true/false) is tie_policy play_on/draw."""
    rules = rules_for("bolivia_sevens", 4, {"sv.tiebreak_extra_deal": old})
    assert rules == rules_for("bolivia_sevens", 4, {TIE_POLICY: policy})
    assert rules.tie_policy == policy and rules.tie_extra_deal == (policy == "play_on")


def test_one_option_under_two_names() -> None:
    """SA-GAME-1: the same value under the old and the new name is one option; two values
    are refused (BAD_OPTION_VALUE), never one silently dropped; an unknown name stays
    UNKNOWN_OPTION."""
    assert rules_for("samba", 4, {"samba.target": 900, TARGET_SCORE: "900"}).target == 900
    with pytest.raises(BadInput) as err:
        rules_for("samba", 4, {"samba.target": 900, TARGET_SCORE: 800})
    assert err.value.reason is Reason.BAD_OPTION_VALUE
    with pytest.raises(BadInput) as err:
        rules_for("classic", 4, {"samba.target": 900})
    assert err.value.reason is Reason.UNKNOWN_OPTION


def test_sevens_tie_policy_survives_a_snapshot() -> None:
    """SV-GAME-1: a game dealt with another deal on a tie encodes and decodes (the rule
    set once recorded tie_policy, which Bolivia with sevens did not accept back)."""
    for given in ({TIE_POLICY: "play_on"}, {"sv.tiebreak_extra_deal": True}):
        state = new_game("bolivia_sevens", 4, seed=5, options=given)
        again = decode_state(encode_state(state))
        assert again.rules == state.rules and again.rules.tie_extra_deal


@pytest.mark.parametrize(("policy", "drawn"), [("draw", True), ("play_on", False)])
def test_bolivia_tie_at_the_target(policy: str, drawn: bool) -> None:
    """BO-GAME-1 (tie_policy): both sides at the same total at or above the target is a
    drawn game under draw; under play_on the game goes on to another deal."""
    melds = {0: "A@0: AS AH AD AC AS AH AD", 1: "K@1: KS KH KD KC KS KH KD"}
    hands = {0: "4D", 1: "4S", 2: "4C", 3: "4H"}

    def last(scores: tuple[int, int]) -> State:
        s = position("bolivia", options={TARGET_SCORE: 1000, TIE_POLICY: policy},
                     phase="draw_exhausted", turn=0, stock=0, pile="*", scores=scores,
                     melds=melds, hands=hands)
        return play(s, "decline")

    first = last((0, 0)).result
    assert first is not None
    totals = [x.total for x in first.sides]
    lead = max(totals)
    end = last((lead - totals[0] + 1000, lead - totals[1] + 1000))
    assert end.result is not None
    assert [x.cumulative for x in end.result.sides] == [lead + 1000] * 2
    assert end.result.draw is drawn and end.result.winner == -1
    assert end.phase is (Phase.GAME_OVER if drawn else Phase.HAND_OVER)
