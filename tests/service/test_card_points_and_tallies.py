"""What a client read nowhere and guessed: what each card counts (ListVariants'
``VariantTable.card_points``; the web table hard-coded classic's values for every game) and a
side's canastas by kind in a score (``ScoreBreakdown.canastas``; only natural and mixed counts
and one bonus sum, so "2 sambas 3000" could not be shown). Over gRPC and REST.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.notation import export_position
from engine.variants import table_facts
from service.api.pb import api
from tests.positions import position
from tests.service.helpers import Call, ok


def test_list_variants_states_each_cards_points(call: Call) -> None:
    """Every table lists the engine's card points (engine.card_points), each card code of the
    deck once: packs of the 52 codes and JK where the table has jokers."""
    for v in ok(call("ListVariants", api.ListVariantsRequest())).variants:
        for t in v.tables:
            want = table_facts(v.id, t.players).card_points
            got = [(tuple(p.cards), p.meld, p.in_hand, p.counts_toward_minimum, p.red_three,
                    tuple(p.options)) for p in t.card_points]
            assert got == [(p.cards, p.meld, p.in_hand, p.counts_toward_minimum, p.red_three,
                            p.options) for p in want], (v.id, t.players)
            codes = Counter(c for p in t.card_points for c in p.cards)
            assert set(codes.values()) == {1} and len(codes) == 52 + (t.jokers > 0), v.id
    sevens = next(v for v in ok(call("ListVariants", api.ListVariantsRequest())).variants
                  if v.id == "bolivia_sevens").tables[0]
    seven = next(p for p in sevens.card_points if "7S" in p.cards)
    assert (seven.meld, seven.in_hand, list(seven.options)) == (
        5, 500, ["sv.seven_penalty_additive"])  # SV-SEVEN-2


# (variant, team 0's melds) -> its tallies (kind, count, bonus): SA-SEQ-5, BO-SEQ-2,
# BO-WILD-2 (bolivia.bolivia_bonus 2500), SV-CAN-3 (a natural canasta of sevens 1500)
TALLIES = [
    ("classic", "K@0: KS KH KD KC KS KH KD | Q@0: QS QH QD QC QS 2C JK",
     [("natural", 1, 500), ("mixed", 1, 300)]),
    ("samba", "H:5-J@0: 5H 6H 7H 8H 9H TH JH | S:5-J@0: 5S 6S 7S 8S 9S TS JS",
     [("samba", 2, 3000)]),
    ("bolivia", "H:5-J@0: 5H 6H 7H 8H 9H TH JH | W@0: JK JK 2S 2H 2D 2C 2H",
     [("escalera", 1, 1500), ("bolivia", 1, 2500)]),
    ("bolivia_sevens", "7@0: 7S 7H 7D 7C 7S 7H 7D | K@0: KS KH KD KC KS KH KD",
     [("natural", 2, 2000)]),
]


@pytest.mark.parametrize(("variant", "melds", "tallies"), TALLIES,
                         ids=[v for v, _, _ in TALLIES])
def test_every_role_sees_the_canastas_by_kind_mid_hand(
        call: Call, variant: str, melds: str, tallies: list[tuple[str, int, int]]) -> None:
    """ScoreHand mid-hand: the host, each seat and a spectator get the same tallies (the
    melds are public; only `in_hand` is scoped to the hands a role sees), whose bonuses are
    the side's canasta_bonus."""
    state = position(variant, hands={0: "4C 6D 8H", 1: "4D 6H", 2: "9C", 3: "9D"},
                     melds={0: melds})
    imported = ok(call("ImportPosition", api.ImportPositionRequest(
        position=export_position(state))))
    request = api.ScoreHandRequest(snapshot=imported.snapshot)
    scores = [ok(call("ScoreHand", request, token=token)) for token in
              [imported.host_token, None, *imported.seat_tokens]]
    assert not scores[0].hand_over
    for score in scores:
        team0 = score.sides[0].breakdown
        assert [(t.kind, t.count, t.bonus) for t in team0.canastas] == tallies
        assert sum(t.bonus for t in team0.canastas) == team0.canasta_bonus
        assert not score.sides[1].breakdown.canastas
    assert len({s.sides[0].breakdown.in_hand for s in scores}) > 1  # in_hand stays scoped
