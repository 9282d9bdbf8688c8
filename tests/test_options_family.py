"""Every option of the registry (variants.md 6.1) for Samba, Bolivia and Bolivia with sevens:
each changes what its rule says, and only that. The scenario files cover the others
(samba.min_7000, samba.red3_set_size, samba.allow_merge_groups, bolivia.going_out,
bolivia.unlimited_wilds_in_groups, bolivia.black3_counts_for_initial,
bolivia.after_stock, sv.bonus_per_side, sv.seven_penalty_additive,
sv.negative_minimum, sv.tiebreak_extra_deal).
"""

from __future__ import annotations

import pytest

from engine import BadInput, Phase, Reason, State, legal_moves, rules_for
from engine.moves import Ask, Decline
from engine.options import SHARED
from engine.variants import VARIANTS, catalogue
from engine.views import provisional_score
from tests.positions import cards, listed, meld_cards, play, position, refuse

K_CANASTA = "KS KH KD KC KS KH KD"
SAMBA_H = "5H 6H 7H 8H 9H TH JH"


@pytest.mark.parametrize("variant", ["samba", "bolivia", "bolivia_sevens"])
def test_registry_is_published_and_validated(variant: str) -> None:
    """The catalogue lists the variant with its options; a bad value is BadInput."""
    info = next(i for i in catalogue() if i.id == variant)
    assert (info.min_players, info.max_players) == (4, 4) and info.name and info.name_ru
    assert info.options == VARIANTS[variant].OPTIONS
    prefix = {"samba": "samba.", "bolivia": "bolivia.", "bolivia_sevens": ("bolivia.", "sv.")}
    # the options every game shares go by their one name (tests/test_option_names.py)
    assert all(o.name.startswith(prefix[variant]) or o.name in SHARED for o in info.options)
    for spec in info.options:
        bad = "maybe" if spec.kind is bool else ("x" if spec.kind is int else "nope")
        with pytest.raises(BadInput) as err:
            rules_for(variant, 4, {spec.name: bad})
        assert err.value.reason is Reason.BAD_OPTION_VALUE
        assert rules_for(variant, 4, {spec.name: spec.default})  # the default is valid


def test_samba_pile_extend_group_off() -> None:
    """SA-PILE-3, SA-C4 (samba.pile_extend_group=false): the top card no longer extends an
    incomplete group; a sequence end still takes it."""
    melds = {0: "9@2: 9D 9D 9C 2S | C:5-8@0: 5C 6C 7C 8C"}
    on = position("samba", phase="draw", hands={0: "4H 6D JS QH 8D"}, melds=melds, pile="5D 9H")
    assert listed(on, "take on 9")
    off = position("samba", phase="draw", hands={0: "4H 6D JS QH 8D"}, melds=melds,
                   pile="5D 9H", options={"samba.pile_extend_group": False})
    refuse(off, "take on 9", Reason.PILE_NEEDS_PAIR, "SA-PILE-3")
    seq = position("samba", phase="draw", hands={0: "4H 6D JS QH 8D"}, melds=melds,
                   pile="5D 9C", options={"samba.pile_extend_group": False})
    assert listed(seq, "take on C:5-8")


def test_samba_canasta_closed_at_7() -> None:
    """SA-CAN-4, SA-C6: naturals join a group canasta unless canasta_closed_at_7."""
    hand = {0: "KC 4H 6D 9S"}
    assert listed(position("samba", hands=hand, melds={0: f"K@0: {K_CANASTA}"}), "add K KC")
    closed = position("samba", hands=hand, melds={0: f"K@0: {K_CANASTA}"},
                      options={"samba.canasta_closed_at_7": True})
    refuse(closed, "add K KC", Reason.MELD_CLOSED, "SV-CAN-1")


def test_samba_allow_join_sequences() -> None:
    """SA-SEQ-6: two sequences of a suit that meet join only with the option."""
    melds = {0: "S:4-6@0: 4S 5S 6S | S:7-9@2: 7S 8S 9S"}
    refuse(position("samba", hands={0: "4H 6D JC"}, melds=melds), "merge S:4-6 S:7-9",
           Reason.MERGE_NOT_ALLOWED, "SA-SEQ-6")
    joined = play(position("samba", hands={0: "4H 6D JC"}, melds=melds,
                           options={"samba.allow_join_sequences": True}), "merge S:4-6 S:7-9")
    assert meld_cards(joined, 0) == [cards("4S 5S 6S 7S 8S 9S")]


def test_samba_concealed_out_bonus() -> None:
    """SA-OUT-3, SA-C3: going out concealed earns 200 like any going out, or nothing with
    samba.concealed_out_bonus=0."""
    for option, bonus in ((200, 200), (0, 0)):
        s = position("samba", options={"samba.concealed_out_bonus": option},
                     hands={0: "QS QH QD QC QS QH QD"},
                     melds={0: f"K@2: {K_CANASTA} | H:5-J@2: {SAMBA_H}"})
        end = play(s, "meld QS QS QH QH QD QD QC", "out")
        assert end.result is not None and end.result.concealed
        assert end.result.sides[0].going_out == bonus


def test_samba_red3_last_card_ends() -> None:
    """SA-END-2: a red three as the last stock card ends the deal; with the option off the
    turn goes on (meld and discard), then the pile alone remains."""
    def last_red(**options: object) -> State:
        return position("samba", phase="draw", options=options, stock=1, stock_top="3H",
                        hands={0: "4C 6D 9S QH KD"}, melds={0: "K@0: KS KH KD"}, pile="*",
                        red3={1: "3H 3D", 2: "3H 3D", 3: "3D"})
    ends = play(last_red(), "draw")
    assert ends.phase is Phase.HAND_OVER
    goes_on = play(last_red(**{"samba.red3_last_card_ends": False}), "draw")
    assert goes_on.phase is Phase.MELD and goes_on.red3[0] == cards("3H")
    nxt = play(goes_on, "add K KD", "discard 9S")
    assert nxt.phase is Phase.DRAW_EXHAUSTED and nxt.turn.seat == 1


def test_samba_ask_partner() -> None:
    """SA-OUT-5: asking the partner is offered only with samba.ask_partner."""
    plain = position("samba", phase="draw", hands={0: "4C 6D 9S"}, melds={0: "K@0: KS KH KD"})
    assert Ask() not in legal_moves(plain)
    asking = position("samba", phase="draw", hands={0: "4C 6D 9S"},
                      melds={0: "K@0: KS KH KD"}, options={"samba.ask_partner": True})
    s1 = play(asking, "ask")
    assert s1.phase is Phase.PERMISSION and s1.awaited == 2


def test_bolivia_forced_take_after_stock() -> None:
    """BO-END-3: with the stock gone the pile is taken at will, or must be taken when its
    top card extends a meld under bolivia.forced_take_after_stock."""
    def exhausted(**options: object) -> State:
        return position("bolivia", phase="draw_exhausted", stock=0, options=options,
                        hands={0: "4C 6D 9S QH"}, melds={0: "K@0: KS KH KD"}, pile="5D KC",
                        red3={1: "3H 3D", 2: "3H 3D", 3: "3H 3D"})
    assert Decline() in legal_moves(exhausted())
    forced = exhausted(**{"bolivia.forced_take_after_stock": True})
    assert Decline() not in legal_moves(forced)
    refuse(forced, "decline", Reason.MUST_TAKE_PILE, "CL-EXH-4")


def test_bolivia_black3_hoyle_and_penalty() -> None:
    """BO-C2 (bolivia.black3=hoyle): black threes only when going out, -100 in hand;
    BO-B3-4 (black3_penalty_additive): -205 instead of -200."""
    hand = {0: "3S 3C 3C 9D 8C 4H"}
    seed = position("bolivia", hands=hand, melds={0: "K@0: KS KH KD"})
    assert listed(seed, "meld 3S 3C 3C")
    assert provisional_score(seed)[0].in_hand - _partner(seed) == 3 * 200 + 25
    hoyle = position("bolivia", hands=hand, melds={0: "K@0: KS KH KD"},
                     options={"bolivia.black3": "hoyle"})
    refuse(hoyle, "meld 3S 3C 3C", Reason.BLACK_THREES_ONLY_GOING_OUT, "SA-B3-1")
    assert provisional_score(hoyle)[0].in_hand - _partner(hoyle) == 3 * 100 + 25
    add = position("bolivia", hands=hand, melds={0: "K@0: KS KH KD"},
                   options={"bolivia.black3_penalty_additive": True})
    assert provisional_score(add)[0].in_hand - _partner(add) == 3 * 205 + 25


def _partner(state: State) -> int:
    """What partner S's hand costs."""
    return sum(state.rules.hand_value(c) for c in state.hands[2])


@pytest.mark.parametrize(("variant", "option", "value", "kind", "bonus"), [
    ("bolivia", "bolivia.bolivia_bonus", 3000, "W@0: JK JK 2S 2H 2D 2C 2S", 3000),
    ("bolivia_sevens", "bolivia.bolivia_bonus", 2500, "W@0: JK JK 2S 2H 2D 2C 2S", 2500),
    ("bolivia_sevens", "sv.escalera_bonus", 2000, f"H:5-J@0: {SAMBA_H}", 2000),
])
def test_bonus_values(variant: str, option: str, value: int, kind: str, bonus: int) -> None:
    """BO-CAN-2, SV-CAN-3, SV-C2: the bolivia and escalera bonuses are options."""
    default = position(variant, hands={0: "4C 6D"}, melds={0: kind})
    changed = position(variant, hands={0: "4C 6D"}, melds={0: kind}, options={option: value})
    assert provisional_score(changed)[0].canasta_bonus == bonus
    assert provisional_score(default)[0].canasta_bonus == {
        ("bolivia", "W"): 2500, ("bolivia_sevens", "W"): 2000,
        ("bolivia_sevens", "H"): 1500}[(variant, kind[0])]
