"""The property tests of ``test_properties_classic`` for Samba, Bolivia and Bolivia with sevens.

The playouts, invariants and checks are the classic module's, parametrised by
variant (four players; defaults plus one set of non-default options each):
all 162 cards conserved, listed moves apply (and round-trip as text), unlisted
moves are refused with a typed reason and leave the state unchanged, views leak
no hidden card, seeds reproduce, the notation round-trips, every hand ends with
no dead end, and a match reaches GAME_OVER. Hypothesis draws each deal's seed and
every move, so a failure shrinks to a short move sequence. The refusal check also
throws the family's own shapes at the engine: labelled additions, sequences, wild
melds, merges and pile takes aimed at a meld.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BadInput, Phase, Reason, RuleViolation, apply, legal_moves, new_game, parse_move
from engine.cards import CARDS, SUIT
from engine.deck import composition
from engine.melds import labels
from engine.moves import AddToMeld, Meld, Merge, Move, TakePile
from engine.notation import export_position, import_position
from engine.state import State
from engine.views import seat_view, seat_views
from tests.conftest import all_cards, examples
from tests.test_properties_classic import (
    KINDS_OF,
    OVER,
    SEEDS,
    _uniform_hand,
    check_refusals,
    check_transition,
    check_view,
    drawn,
    hand_bound,
    play_match,
    playout,
    random_moves,
    replay,
    states,
)

Options = Mapping[str, object]

CONFIGS: list[tuple[str, Options]] = [
    ("samba", {}),
    ("samba", {"samba.allow_join_sequences": True, "samba.canasta_closed_at_7": True,
               "samba.pile_extend_group": False, "samba.red3_last_card_ends": False,
               "samba.ask_partner": True, "samba.red3_set_size": "brazil"}),
    ("bolivia", {}),
    ("bolivia", {"bolivia.unlimited_wilds_in_groups": True,
                 "bolivia.black3_counts_for_initial": True, "bolivia.after_stock": "single_chance",
                 "bolivia.forced_take_after_stock": True, "bolivia.going_out": "hoyle",
                 "bolivia.allow_merge_groups": False}),
    ("bolivia_sevens", {}),
    ("bolivia_sevens", {"sv.bonus_per_side": True, "bolivia.black3": "hoyle",
                        "bolivia.going_out": "hoyle", "sv.negative_minimum": 15,
                        "sv.seven_penalty_additive": True}),
]


def _params(configs: list[tuple[str, Options]]) -> list[Any]:
    out = []
    for variant, options in configs:
        opts = ",".join(f"{k.partition('.')[2]}={v}" for k, v in sorted(options.items()))
        out.append(pytest.param(variant, options, id=variant + (f"[{opts}]" if opts else "")))
    return out


PARAMS = _params(CONFIGS)
PLAYERS = 4


@pytest.mark.parametrize(("variant", "options"), PARAMS)
@given(data=st.data())
def test_cards_conserved(variant: str, options: Options, data: st.DataObject) -> None:
    """SA-COMP-1, BO-COMP-1: three packs and six jokers, 162 cards, in every state."""
    deck = composition(new_game(variant, PLAYERS, seed=0, options=options).rules)
    assert sum(deck.values()) == 162
    for state in states(data, PLAYERS, options, variant=variant):
        assert all_cards(state) == deck, state.ply


@pytest.mark.parametrize(("variant", "options"), PARAMS)
@given(data=st.data())
def test_legal_list_is_sound(variant: str, options: Options, data: st.DataObject) -> None:
    """The legal list has no duplicates, is deterministic (also rebuilt through the
    notation), holds only moves of the phase, and every listed move applies and
    round-trips as text; the phase machine moves as in section 0.4."""
    for state, _ in playout(data, PLAYERS, options, variant=variant):
        moves = legal_moves(state)
        assert len(set(moves)) == len(moves), "duplicate moves"
        assert legal_moves(import_position(export_position(state))) == moves
        assert all(isinstance(m, KINDS_OF[state.phase]) for m in moves), state.phase
        if state.phase not in OVER:
            assert moves, "no legal move in a live state"
        for move in moves:
            assert parse_move(str(move)) == move, str(move)
            assert parse_move(str(move).lower()) == move
            after = apply(state, move)
            check_transition(state, move, after)


def family_moves(state: State, rng: random.Random, count: int) -> list[Move]:
    """Random moves of the family's own shapes: labelled additions (real and made-up
    labels), runs of one suit, wild-only melds, merges and takes aimed at a meld."""
    seat = state.awaited if state.awaited >= 0 else state.turn.seat
    hand = list(state.hands[seat]) or [CARDS[0]]
    melds = state.melds[state.team_of(seat)]
    names = labels(melds) + ["K#2", "W", "W#2", "S:5-9", "H:4-6", "3#2", "9"]
    out: list[Move] = []
    for _ in range(count):
        cards = tuple(rng.choice(hand) for _ in range(rng.choice((1, 2, 3))))
        kind = rng.randrange(5)
        label = rng.choice(names)
        if kind == 0:
            try:
                move = parse_move(f"add {label} " + " ".join(str(c) for c in cards))
            except BadInput:
                continue
            out.append(move)
        elif kind == 1:
            suit = rng.randrange(4)
            low = rng.randrange(2, 10)
            run = [c for c in CARDS[:52] if SUIT[c] == suit and low <= c.rank < low + 3]
            out.append(Meld((tuple(run),)))
        elif kind == 2:
            wild = [c for c in hand if state.rules.wild[c]] or [CARDS[52]]
            out.append(Meld((tuple(rng.choice(wild) for _ in range(rng.choice((2, 3, 4)))),)))
        elif kind == 3:
            out.append(Merge(rng.choice(names), rng.choice(names)))
        else:
            out.append(TakePile(cards[:rng.choice((0, 2))], (), rng.choice(names + [""])))
    out.extend(m for m in legal_moves(state) if isinstance(m, (AddToMeld, Merge, TakePile))
               and rng.random() < 0.2)
    return out


@pytest.mark.parametrize(("variant", "options"), PARAMS)
@given(data=st.data(), shuffle=SEEDS)
def test_unlisted_moves_are_refused(variant: str, options: Options, data: st.DataObject,
                                    shuffle: int) -> None:
    """A move whose canonical form is not listed is refused with a typed error, a
    specific Reason and its rule, the state unchanged; listed moves in any spelling are
    accepted; only the awaited seat may move. ``shuffle`` seeds the unlisted moves."""
    rng = random.Random(shuffle)
    for state in states(data, PLAYERS, options, variant=variant):
        check_refusals(state, random_moves(state, rng, 6) + family_moves(state, rng, 6))
        if state.phase not in OVER:
            other = rng.choice([s for s in range(PLAYERS) if s != state.awaited])
            with pytest.raises(RuleViolation) as info:
                apply(state, legal_moves(state)[0], seat=other)
            assert info.value.reason is Reason.NOT_YOUR_TURN


@pytest.mark.parametrize(("variant", "options"), PARAMS)
@given(data=st.data())
def test_views_leak_no_hidden_card(variant: str, options: Options, data: st.DataObject) -> None:
    """A seat's view holds its own hand only; other hands are sizes, the stock a size,
    the pile its top; the melds carry their labels."""
    for state in states(data, PLAYERS, options, variant=variant):
        for seat in range(-1, PLAYERS):
            check_view(state, seat)
        # what a service returns for every seat is exactly those views
        assert seat_views(state) == tuple(seat_view(state, s) for s in range(PLAYERS))


@pytest.mark.parametrize(("variant", "options"), PARAMS)
@given(data=st.data(), other=SEEDS)
def test_seeds_reproduce(variant: str, options: Options, data: st.DataObject,
                         other: int) -> None:
    """The same seed and choices give identical positions; another seed another deal."""
    played = list(playout(data, PLAYERS, options, 300, variant=variant))
    replay(played, options)
    seed = played[0][0].seed
    if other != seed:
        a = new_game(variant, PLAYERS, seed=seed, options=options)
        b = new_game(variant, PLAYERS, seed=other, options=options)
        assert a.hands != b.hands


@pytest.mark.parametrize(("variant", "options"), PARAMS)
@given(data=st.data())
def test_notation_round_trips(variant: str, options: Options, data: st.DataObject) -> None:
    """export(import(export(s))) == export(s) and import(export(s)) == s in every state
    (sequence and wild-meld labels, staged merges, the last-chance flag included)."""
    for state in states(data, PLAYERS, options, variant=variant):
        text = export_position(state)
        back = import_position(text)
        assert back == state
        assert export_position(back) == text


@pytest.mark.parametrize(("variant", "options"), PARAMS)
@given(data=st.data())
def test_every_hand_ends(variant: str, options: Options, data: st.DataObject) -> None:
    """SA-END-1, BO-END-1: choosing among the listed non-undo moves, a hand always ends
    within a bound (so no state offers only ``undo``)."""
    state = new_game(variant, PLAYERS, seed=data.draw(SEEDS, label="seed"), options=options)
    state = _uniform_hand(state, drawn(data), hand_bound(state))
    assert state.phase in OVER and state.result is not None


# A low target where the rules allow one (samba.target is an engine option; Bolivia
# with sevens always plays its round of four deals).
MATCH_CONFIGS = [("samba", {"samba.target": 1500}), ("bolivia", {"bolivia.target": 1500}),
                 ("bolivia_sevens", {}), ("bolivia_sevens", {"sv.tiebreak_extra_deal": True})]


@pytest.mark.parametrize(("variant", "options"), _params(MATCH_CONFIGS))
@settings(max_examples=examples(1))
@given(data=st.data())
def test_match_reaches_game_over(variant: str, options: Options, data: st.DataObject) -> None:
    """SA-GAME-1, BO-GAME-1, SV-GAME-1: next_deal rotates the dealer and carries the
    totals; a match ends in GAME_OVER (Bolivia with sevens after four deals)."""
    ends = play_match(data, PLAYERS, options, variant=variant)
    assert ends[-1].phase is Phase.GAME_OVER
    if variant == "bolivia_sevens" and not options:
        assert len(ends) == 4
