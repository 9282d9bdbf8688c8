"""A side's canastas by kind in a hand's score (``SideResult.canastas``, engine/scoring.py):
each kind's count and bonuses as the rules give them, named as the view names each canasta.

Values are the rules pages' (docs/rules-*.md), not the engine's tables. Seats: 0..3 = N, E,
S, W; team 0 = N+S, team 1 = E+W.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine.scoring import cutthroat_results, hand_sides
from engine.state import CanastaTally, SideResult
from engine.transitions import form_pair
from engine.views import seat_view
from tests.positions import position
from tests.test_scenarios_classic import position as classic_position

SAMBA_H = "5H 6H 7H 8H 9H TH JH"  # a sequence of seven: a samba (SA-SEQ-5), an escalera (BO-SEQ-2)
BOLIVIA = "JK JK 2S 2H 2D 2C 2H"  # seven wild cards: a bolivia (BO-WILD-2)
KINGS = "KS KH KD KC KS KH KD"  # a natural canasta
QUEENS = "QS QH QD QC QS 2C JK"  # a mixed canasta (two wild cards)
SEVENS = "7S 7H 7D 7C 7S 7H 7D"  # a natural canasta of sevens (SV-CAN-3)
MIXED_SEVENS = "7S 7H 7D 7C 7S 2D JK"
FOURS = {0: "4C", 1: "4D", 2: "4H", 3: "4S"}  # a hand each, the melds' cards left free


def _team0(variant: str, melds: str, options: Mapping[str, object] | None = None) -> SideResult:
    """Team 0's score with ``melds`` (each seat holding a four), checked for what holds of
    every side: the tallies make its canasta bonus, their counts its natural and mixed
    canastas."""
    state = position(variant, hands=FOURS, melds={0: melds},
                     options=options)
    side = hand_sides(state, -1, False)[0]
    assert sum(t.bonus for t in side.canastas) == side.canasta_bonus
    assert sum(t.count for t in side.canastas) == side.natural_canastas + side.mixed_canastas
    return side


def test_CL_SCORE_2_natural_and_mixed_canastas_are_tallied_apart() -> None:
    """CL-SCORE-2: +500 per natural, +300 per mixed canasta; two natural ones are one tally."""
    side = _team0("classic", f"K@0: {KINGS} | Q@0: {QUEENS} | A@0: AS AH AD AC AS AH AD")
    assert side.canastas == (CanastaTally("natural", 2, 1000), CanastaTally("mixed", 1, 300))
    assert (side.natural_canastas, side.mixed_canastas, side.canasta_bonus) == (2, 1, 1300)


def test_CL_SCORE_2_a_side_without_canastas_tallies_none() -> None:
    """CL-SCORE-2: no canasta, no bonus and no tally (an incomplete meld is no canasta)."""
    side = _team0("classic", "K@0: KS KH KD KC")
    assert (side.canastas, side.canasta_bonus) == ((), 0)


def test_CL_P3_2_cutthroat_pair_tallies_its_shared_canastas() -> None:
    """CL-P3-2, CL-SCORE-2: each partner of the cutthroat pair scores the pair's canastas,
    tallied as any side's, 500 a natural and 300 a mixed one."""
    state = form_pair(classic_position(
        players=3, options={"p3_mode": "cutthroat"}, phase="meld", turn=1, drew="stock",
        hands={0: "KH KD 2C 6S", 1: "5C 4D", 2: "8S 8C"},
        melds={0: "9@0: 9S 9C 9H", 1: f"Q@1: {QUEENS} | A@1: AS AH AD AC AS AH AD"},
        pile="7C", opened=[1, 1, 0], melded=[1, 1, 1]), 0)
    rows = {s.team: s for s in cutthroat_results(state, -1, False)}
    for seat in (1, 2):
        assert rows[seat].canastas == (CanastaTally("natural", 1, 500),
                                       CanastaTally("mixed", 1, 300))
        assert rows[seat].canasta_bonus == 800
    assert rows[0].canastas == ()


def test_SA_SEQ_5_a_samba_is_tallied_as_a_samba() -> None:
    """SA-SEQ-5, SA-CAN-1/2: a samba is a canasta worth 1500, a kind of its own beside the
    natural (500) and mixed (300) ones; the counts keep it among the natural ones."""
    side = _team0("samba", f"H:5-J@0: {SAMBA_H} | K@0: {KINGS} | Q@0: QS QH QD QC QS QH 2C")
    assert side.canastas == (CanastaTally("natural", 1, 500), CanastaTally("mixed", 1, 300),
                             CanastaTally("samba", 1, 1500))
    assert (side.natural_canastas, side.mixed_canastas, side.canasta_bonus) == (2, 1, 2300)


def test_BO_SEQ_2_BO_WILD_2_escalera_and_bolivia_are_tallied_apart() -> None:
    """BO-SEQ-2, BO-WILD-2, BO-CAN-2: an escalera 1500, a bolivia 2500 (the
    bolivia.bolivia_bonus option's default; 3000 with it set so), each a kind of its own;
    the counts keep an escalera among the natural canastas and a bolivia among the mixed."""
    melds = f"H:5-J@0: {SAMBA_H} | W@0: {BOLIVIA} | K@0: {KINGS}"
    side = _team0("bolivia", melds)
    assert side.canastas == (CanastaTally("natural", 1, 500), CanastaTally("escalera", 1, 1500),
                             CanastaTally("bolivia", 1, 2500))
    assert (side.natural_canastas, side.mixed_canastas, side.canasta_bonus) == (2, 1, 4500)
    richer = _team0("bolivia", melds, {"bolivia.bolivia_bonus": 3000})
    assert richer.canastas[-1] == CanastaTally("bolivia", 1, 3000)


def test_SV_CAN_3_sevens_canastas_tally_as_natural_and_mixed_at_their_own_bonus() -> None:
    """SV-CAN-3: a natural canasta of sevens 1500, a mixed one 1000, other canastas 500 and
    300, a bolivia 2000, an escalera 1500 (sv.escalera_bonus): the sevens canastas are
    natural and mixed ones, their bonuses in those kinds' sums."""
    side = _team0("bolivia_sevens", f"7@0: {SEVENS} | K@0: {KINGS} | Q@0: {QUEENS} | "
                                    f"H:5-J@0: {SAMBA_H} | W@0: {BOLIVIA}")
    assert side.canastas == (CanastaTally("natural", 2, 1500 + 500),
                             CanastaTally("mixed", 1, 300), CanastaTally("escalera", 1, 1500),
                             CanastaTally("bolivia", 1, 2000))
    mixed = _team0("bolivia_sevens", f"7@0: {MIXED_SEVENS}")
    assert mixed.canastas == (CanastaTally("mixed", 1, 1000),)


@pytest.mark.parametrize(("variant", "melds"), [
    ("classic", f"K@0: {KINGS} | Q@0: {QUEENS}"),
    ("samba", f"H:5-J@0: {SAMBA_H} | K@0: {KINGS}"),
    ("bolivia", f"H:5-J@0: {SAMBA_H} | W@0: {BOLIVIA}"),
    ("bolivia_sevens", f"7@0: {SEVENS} | W@0: {BOLIVIA}"),
])
def test_each_tallied_kind_is_a_kind_the_view_names(variant: str, melds: str) -> None:
    """A tally's kind is MeldView.canasta_kind's word for the canastas it counts (the view
    and the score name a canasta alike)."""
    state = position(variant, hands=FOURS, melds={0: melds})
    side = hand_sides(state, -1, False)[0]
    kinds = [m.canasta_kind for m in seat_view(state, -1).sides[0].melds if m.canasta_kind]
    assert {t.kind: t.count for t in side.canastas} == {k: kinds.count(k) for k in kinds}
