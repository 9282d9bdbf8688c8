"""Property tests of May I? over random playouts, for 3, 4 and 5 players.

Each test has hypothesis draw the seed and then every move among the legal moves of the
awaited seat (with ``first_call``, also the seat that answers a buy window) — so buy
windows open, and are answered ``buy`` or ``pass``, all the time — and checks an
invariant in every state reached. A playout starts at a deal chosen by the seed (every
contract of the schedule gets played). A failure shrinks to a short move sequence.

The exception is :func:`test_every_deal_ends`: a deal of random play can run to tens of
thousands of plies, more choices than hypothesis draws for one example, so it walks with
``random.Random`` from a drawn seed. ``make fuzz`` runs many more examples of all.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    BadInput,
    EngineError,
    Phase,
    Reason,
    RuleViolation,
    apply,
    canonicalize,
    legal_moves,
    new_game,
    next_deal,
    parse_move,
)
from engine.cards import CARDS, CODES, Card
from engine.mayi import transitions as tr
from engine.mayi.checks import refusal
from engine.mayi.legal import contract_melds, legal_moves_for
from engine.mayi.melds import classify, contiguous
from engine.mayi.moves import Buy, GoDown, LayOff, PassBuy, canonical_groups
from engine.mayi.reasons import MayIReason, MayIViolation
from engine.mayi.rules import BuyPriority, MayIRules, build
from engine.mayi.state import MayIState
from engine.mayi.successor import evolve
from engine.mayi.table import TableMeld
from engine.moves import Discard, Draw, GoOut, Meld, Move, TakePile
from engine.notation import export_position, import_position
from engine.views import seat_view, seat_views
from tests.test_properties_classic import MALFORMED, RULE_ID

Options = Mapping[str, object]

CONFIGS: list[tuple[int, Options]] = [
    (3, {}),
    (4, {}),
    (5, {}),
    (4, {"buy_priority": "first_call"}),
    (4, {"contract_exact_sizes": False}),
    (3, {"ace_wrap": False, "allow_contiguous_runs": True}),
    (5, {"buy_penalty_cards": 2, "max_buys_per_deal": None}),
    (4, {"out_requires_discard": True, "layoff_same_turn": True, "turn_upcard": True,
         "down_players_may_buy": False}),
    (3, {"schedule": "classic7"}),
]


def _params() -> list[Any]:
    out = []
    for players, options in CONFIGS:
        opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
        out.append(pytest.param(players, options, id=f"p{players}" + (f"[{opts}]" if opts else "")))
    return out


SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
DECK = tr.composition()


# --- playouts -------------------------------------------------------------------------


def start(players: int, options: Options, seed: int) -> MayIState:
    """A fresh deal of the seed's game at a deal chosen by the seed."""
    rules = build(players, options)
    hand_no = seed % rules.deals
    return tr.deal(rules, seed, hand_no, (seed >> 8) % players, (0,) * players)


# Picks one of the listed moves (or seats): rng.choice, or a hypothesis draw.
Pick = Callable[[Sequence[Any], str], Any]
Choose = Callable[[MayIState], tuple[Move, int | None]]


def chooser(pick: Pick) -> Choose:
    """Moves picked among the listed ones; with ``first_call`` any seat in the window
    answers (the seat is picked first)."""
    def choose(state: MayIState) -> tuple[Move, int | None]:
        if state.phase is Phase.BUY_WINDOW and state.rules.buy_priority is BuyPriority.FIRST_CALL:
            seat = pick(state.turn.window, f"ply {state.ply} seat")
            return pick(legal_moves_for(state, seat), f"ply {state.ply}"), seat
        return pick(legal_moves(state), f"ply {state.ply}"), None
    return choose


def drawn(data: st.DataObject) -> Choose:
    """Every choice drawn by hypothesis."""
    return chooser(lambda items, label: data.draw(st.sampled_from(items), label=label))


def seeded(rng: random.Random) -> Choose:
    return chooser(lambda items, label: rng.choice(items))


def playout(players: int, options: Options, seed: int, choose: Choose,
            max_plies: int = 2500) -> Iterator[tuple[MayIState, Move | None, int | None]]:
    """The states of one deal, each with the move (and seat) applied to it."""
    state = start(players, options, seed)
    for _ in range(max_plies):
        if state.phase in OVER:
            break
        move, seat = choose(state)
        yield state, move, seat
        state = apply(state, move, seat)  # type: ignore[assignment]
    yield state, None, None


def states(players: int, options: Options, seed: int, choose: Choose, max_plies: int = 2500
           ) -> Iterator[MayIState]:
    for state, _, _ in playout(players, options, seed, choose, max_plies):
        yield state


def drawn_states(data: st.DataObject, players: int, options: Options, max_plies: int = 2500
                 ) -> Iterator[MayIState]:
    """The states of a deal whose seed and every move hypothesis draws."""
    return states(players, options, data.draw(SEEDS, label="seed"), drawn(data), max_plies)


def cards_of(state: MayIState) -> Counter[Card]:
    total: Counter[Card] = Counter(state.stock) + Counter(state.pile)
    for h in state.hands:
        total.update(h)
    for seat in state.melds:
        for m in seat:
            total.update(m.cards)
    return total


# --- 1. cards are conserved -------------------------------------------------------------


@pytest.mark.parametrize(("players", "options"), _params())
@given(data=st.data())
def test_cards_conserved(players: int, options: Options, data: st.DataObject) -> None:
    """MI-COMP-1: every state holds exactly the 104 cards, whatever was drawn, taken,
    bought (with penalty cards), reshuffled (MI-STOCK-1), melded or laid off."""
    assert sum(DECK.values()) == 104
    for state in drawn_states(data, players, options):
        assert cards_of(state) == DECK, state.ply
        assert all(list(h) == sorted(h) for h in state.hands)


# --- 2. the legal list ----------------------------------------------------------------

KINDS_OF: dict[Phase, tuple[type, ...]] = {
    Phase.DRAW: (TakePile, Draw),
    Phase.BUY_WINDOW: (Buy, PassBuy),
    Phase.MELD: (GoDown, LayOff, Discard),
    Phase.HAND_OVER: (),
    Phase.GAME_OVER: (),
}


def check_listed(state: MayIState) -> None:
    moves = legal_moves(state)
    assert len(moves) == len(set(moves)), "duplicates in the legal list"
    assert all(isinstance(m, KINDS_OF[state.phase]) for m in moves)
    assert (state.phase in OVER) == (not moves)
    for move in moves:
        assert parse_move(str(move)) == move and canonicalize(state, move) == move
        after = apply(state, move)
        assert cards_of(after) == DECK
        assert after.ply == state.ply + 1


@pytest.mark.parametrize(("players", "options"), _params())
@given(data=st.data())
def test_listed_moves_apply(players: int, options: Options, data: st.DataObject) -> None:
    """MI-TURN-2: the legal list is finite, canonical, without duplicates, of the phase's
    kinds, and every listed move applies (and round-trips as text)."""
    for state in drawn_states(data, players, options, max_plies=600):
        check_listed(state)


@pytest.mark.parametrize(("players", "options"), _params())
@given(data=st.data())
def test_buyers_match_buy_refusal(players: int, options: Options, data: st.DataObject) -> None:
    """MI-BUY-1/5/6/7: the window lists exactly the eligible seats, in rotation order."""
    for state in drawn_states(data, players, options, max_plies=800):
        if state.phase is Phase.DRAW and state.turn.fresh:
            order = [(state.turn.seat + k) % players for k in range(1, players)]
            assert tr.buyers(state) == tuple(s for s in order
                                             if tr.buy_refusal(state, s) is None)


# --- 3. unlisted moves are refused -------------------------------------------------------


def random_moves(state: MayIState, rng: random.Random, count: int) -> list[Move]:
    """Moves of every kind, mostly malformed or illegal here."""
    n = state.rules.players
    mine = list(state.hands[state.turn.seat])
    out: list[Move] = [Draw(), TakePile(), Buy(), PassBuy(), GoOut(), parse_move("take 9H 9S"),
                       Meld(((CARDS[0], CARDS[4], CARDS[8]),))]
    for _ in range(count):
        c = CARDS[rng.randrange(52)]
        out.append(Discard(rng.choice([c, *mine]) if mine else c))
        out.append(LayOff(rng.randrange(n + 1), rng.randrange(4), rng.choice([c, *mine])))
        pool = mine + [CARDS[rng.randrange(52)] for _ in range(4)]
        groups = [tuple(rng.sample(pool, min(len(pool), rng.choice((3, 4)))))
                  for _ in range(rng.randint(1, 3))]
        out.append(GoDown(tuple(groups)))
    return out


def check_refusals(state: MayIState, moves: list[Move], rng: random.Random) -> None:
    """MI-TURN-2: the rule checks pass every listed move (engine/mayi/checks.py, the
    checks the generators keep their moves by); an unlisted move, by the awaited seat or
    another, is refused by the first it fails and the state is unchanged."""
    n = state.rules.players
    before = export_position(state)
    if state.phase not in OVER:
        for listed_move in legal_moves(state):
            why = refusal(state, listed_move)
            assert why is None, f"{listed_move} is listed, yet {why}"
    for move in moves:
        seat = rng.choice([None, state.awaited, rng.randrange(n)])
        mover = state.awaited if seat is None else seat
        listed = legal_moves_for(state, mover) if mover >= 0 else []
        if canonicalize(state, move) in listed and state.phase not in OVER:
            after = apply(state, move, seat)
            assert cards_of(after) == DECK
        else:
            with pytest.raises(EngineError) as err:
                apply(state, move, seat)
            check_refusal(err.value, move)
        assert export_position(state) == before, f"{move} changed the state"


def check_refusal(err: EngineError, move: Move) -> None:
    """Typed as docs/errors.md says, with the rule it enforces; ``NOT_LISTED`` only for a
    move of the Canasta family that May I? does not have; a rule's refusal is one of May
    I?'s own reasons."""
    assert isinstance(err, (BadInput, MayIViolation)), type(err)
    assert isinstance(err, BadInput) or err.reason in get_args(MayIReason), err
    assert isinstance(err, BadInput) == (err.reason in MALFORMED), err
    assert isinstance(err, BadInput) or RULE_ID.fullmatch(err.rule), err
    foreign = isinstance(move, (Meld, GoOut)) or (isinstance(move, TakePile)
                                                   and move != TakePile())
    assert (err.reason is Reason.NOT_LISTED) <= foreign, err
    assert err.message


@pytest.mark.parametrize(("players", "options"), _params())
@given(data=st.data(), shuffle=SEEDS)
def test_unlisted_moves_are_refused(players: int, options: Options, data: st.DataObject,
                                    shuffle: int) -> None:
    """MI-TURN-2, MI-BUY-3: a move (by a seat) that is not listed for that seat is refused
    with a typed reason and the state is unchanged; a listed one applies. Only the awaited
    seat moves (and, with ``first_call``, every seat still in the window). ``shuffle``
    seeds the moves and seats tried."""
    rng = random.Random(shuffle)
    for state in drawn_states(data, players, options, max_plies=800):
        check_refusals(state, random_moves(state, rng, 4), rng)
        if state.phase not in OVER:
            with pytest.raises(BadInput) as bad:
                apply(state, legal_moves(state)[0], seat=players)
            assert bad.value.reason is Reason.BAD_SEAT


# --- 4. views leak nothing ------------------------------------------------------------------


def hidden_shuffled(state: MayIState, seat: int, rng: random.Random) -> MayIState:
    """The same state with the cards ``seat`` cannot see (other hands, the stock)
    dealt anew between those zones, sizes kept."""
    others = [s for s in range(state.rules.players) if s != seat]
    pool = list(state.stock) + [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:size])), pool[size:]
    return evolve(state, hands=tuple(hands), stock=tuple(pool))


@pytest.mark.parametrize(("players", "options"), _params())
@given(data=st.data(), shuffle=SEEDS)
def test_views_leak_no_hidden_card(players: int, options: Options, data: st.DataObject,
                                   shuffle: int) -> None:
    """Views show the seat's own hand, hand sizes, the stock size, the whole (public) pile
    and the table; re-dealing what the seat cannot see never changes its view. ``shuffle``
    seeds the seat looked at and the re-deal."""
    rng = random.Random(shuffle)
    for state in drawn_states(data, players, options, max_plies=1500):
        if state.phase in OVER:
            continue
        seat = rng.randrange(players)
        view = seat_view(state, seat)
        # what a service returns for every seat is exactly the seat views (first_call:
        # every seat still in a buy window sees its buy/pass)
        assert seat_views(state) == tuple(seat_view(state, s) for s in range(players))
        assert view.hand == tuple(CODES[c] for c in state.hands[seat])
        assert view.pile == tuple(CODES[c] for c in state.pile)
        assert view.stock_size == len(state.stock)
        assert view == seat_view(hidden_shuffled(state, seat, rng), seat)
        spectator = seat_view(state, -1)
        assert spectator.hand == () and spectator.legal_moves == ()
        assert spectator == seat_view(hidden_shuffled(state, -1, rng), -1)


# --- 5. seeds reproduce, notation round-trips ----------------------------------------------


@pytest.mark.parametrize(("players", "options"), _params())
@given(data=st.data())
def test_seeds_reproduce(players: int, options: Options, data: st.DataObject) -> None:
    """MI-DEAL-2: a seed deals the same game; the same moves give the same states."""
    seed = data.draw(SEEDS, label="seed")
    played = list(playout(players, options, seed, drawn(data), max_plies=400))
    state = start(players, options, seed)
    for before, move, seat in played:
        assert export_position(state) == export_position(before)
        if move is not None:
            state = apply(state, move, seat)  # type: ignore[assignment]
    a = new_game("may_i", players, seed=seed, options=options)
    b = new_game("may_i", players, seed=seed ^ 1, options=options)
    assert a == new_game("may_i", players, seed=seed, options=options) and a.hands != b.hands


@pytest.mark.parametrize(("players", "options"), _params())
@given(data=st.data())
def test_notation_round_trips(players: int, options: Options, data: st.DataObject) -> None:
    """Export then import gives an equal state, and exporting it again the same text."""
    for state in drawn_states(data, players, options, max_plies=1500):
        text = export_position(state)
        back = import_position(text)
        assert back == state, text
        assert export_position(back) == text


@pytest.mark.parametrize(("players", "options"), _params()[:4])
@given(data=st.data())
def test_snapshot_codec_round_trips(players: int, options: Options, data: st.DataObject) -> None:
    """The snapshot codec (when present) encodes May I? states exactly."""
    codec = pytest.importorskip("engine.codec")
    for state in drawn_states(data, players, options, max_plies=400):
        assert codec.decode_state(codec.encode_state(state)) == state


# --- 6. deals and games end ---------------------------------------------------------------


def play_deal(state: MayIState, rng: random.Random, limit: int = 200_000) -> MayIState:
    """A deal of random moves, except that a player who can go down does (one of his
    ``down`` moves at random). Nothing in the rules ends a live deal (MI-STOCK-1
    reshuffles without end), and uniform play mostly passes the chance by: a third of
    the three-sequence deals of ``classic7`` tried ran past 100,000 plies that way, and
    one went past this limit. Going down when it can, the longest of 60 took 66,000."""
    choose = seeded(rng)
    for _ in range(limit):
        if state.phase in OVER:
            return state
        move, seat = choose(state)
        if seat is None and state.phase is Phase.MELD:
            downs = [m for m in legal_moves(state) if isinstance(m, GoDown)]
            if downs:
                move = rng.choice(downs)
        state = apply(state, move, seat)  # type: ignore[assignment]
    raise AssertionError(f"the deal did not end in {limit} plies")


@pytest.mark.parametrize(("players", "options"), _params())
@given(seed=SEEDS)
def test_every_deal_ends(players: int, options: Options, seed: int) -> None:
    """MI-OUT-1/2, MI-STOCK-1/2: play (see :func:`play_deal`) always ends the deal, with a
    result: the seat that went out scores 0, every other seat his hand (MI-SCORE-1).

    The deal can run to tens of thousands of plies, beyond what hypothesis draws for one
    example: the moves come from ``random.Random(seed)``, the seed drawn."""
    state = play_deal(start(players, options, seed), random.Random(seed))
    result = state.result
    assert result is not None
    assert len(result.sides) == players
    for row in result.sides:
        points = 0 if row.team == result.went_out else sum(
            15 if c >> 2 == 12 else 10 if c >> 2 >= 8 else (c >> 2) + 2
            for c in state.hands[row.team])
        assert row.total == row.in_hand == points and row.cumulative == points
    if result.went_out >= 0:
        assert not state.hands[result.went_out]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_five_deal_game_ends(players: int) -> None:
    """MI-GAME-1, MI-GAME-2, MI-DEAL-1: a game of random play is five deals, the deal
    passing left; then the lowest total wins and no deal follows."""
    choose = seeded(random.Random(players))
    state: MayIState = new_game("may_i", players, seed=players)  # type: ignore[assignment]
    dealers = []
    bought = windows = 0
    while True:
        dealers.append(state.dealer)
        while state.phase not in OVER:
            if state.phase is Phase.BUY_WINDOW:
                windows += 1
            move, seat = choose(state)
            bought += isinstance(move, Buy)
            state = apply(state, move, seat)  # type: ignore[assignment]
        if state.phase is Phase.GAME_OVER:
            break
        state = next_deal(state)  # type: ignore[assignment]
    assert state.hand_no == 4 and dealers == [(players - 1 + k) % players for k in range(5)]
    assert state.result is not None
    totals = [r.cumulative for r in state.result.sides]
    assert state.result.winners == tuple(s for s, t in enumerate(totals) if t == min(totals))
    assert windows > 0 and bought > 0  # buy windows were exercised
    with pytest.raises(RuleViolation):
        next_deal(state)


# --- 7. going down: the list is every contract, once ----------------------------------------


def brute_downs(rules: MayIRules, hand_no: int, hand: tuple[Card, ...]
                ) -> set[tuple[tuple[Card, ...], ...]]:
    """Every way to go down, by brute force over all sub-multisets of the hand."""
    need_sets, need_runs = rules.contract(hand_no)
    sizes = (3, 4) if rules.exact else range(3, len(hand) + 1)
    groups: set[TableMeld] = set()
    for size in sizes:
        for combo in combinations(hand, size):
            meld = classify(combo, rules.wrap, exact=rules.exact)
            if meld is not None:
                groups.add(meld)
    sets = sorted((g for g in groups if not g.is_run), key=lambda g: g.cards)
    runs = sorted((g for g in groups if g.is_run), key=lambda g: g.cards)
    found: set[tuple[tuple[Card, ...], ...]] = set()

    def fits(chosen: list[TableMeld]) -> bool:
        return not Counter(c for g in chosen for c in g.cards) - Counter(hand)

    def done(chosen: list[TableMeld]) -> None:
        rs = [g for g in chosen if g.is_run]
        if not rules.joinable and any(
                contiguous(a, b, rules.wrap) for a, b in combinations(rs, 2)):
            return
        if rules.keep_one and sum(g.length for g in chosen) == len(hand):
            return
        found.add(tuple(g.cards for g in chosen))

    def pick(pool: list[TableMeld], first: int, left: int, chosen: list[TableMeld],
             then: Callable[[list[TableMeld]], None]) -> None:
        if left == 0:
            then(chosen)
            return
        for i in range(first, len(pool)):
            if fits([*chosen, pool[i]]):
                pick(pool, i, left - 1, [*chosen, pool[i]], then)

    pick(sets, 0, need_sets, [], lambda chosen: pick(runs, 0, need_runs, chosen, done))
    return found


def _norm(downs: Iterable[tuple[tuple[Card, ...], ...]]
          ) -> set[frozenset[tuple[tuple[Card, ...], int]]]:
    """Ways of going down compared as multisets of melds."""
    return {frozenset(Counter(tuple(sorted(g)) for g in d).items()) for d in downs}


def meldy_hand(rules: MayIRules, hand_no: int, rng: random.Random) -> tuple[Card, ...]:
    """A hand that often holds the contract (and more): sets, runs and loose cards."""
    need_sets, need_runs = rules.contract(hand_no)
    cards: list[Card] = []
    for _ in range(need_sets + rng.randint(0, 1)):
        rank = rng.randrange(13)
        cards += [CARDS[rank * 4 + rng.randrange(4)] for _ in range(rng.choice((3, 3, 4, 5)))]
    for _ in range(need_runs + rng.randint(0, 1)):
        suit, low = rng.randrange(4), rng.randrange(13)
        cards += [CARDS[((low + i) % 13) * 4 + suit] for i in range(rng.choice((4, 4, 5)))]
    cards += [CARDS[rng.randrange(52)] for _ in range(rng.randint(1, 4))]
    seen: Counter[Card] = Counter()
    kept = []
    for c in cards:
        seen[c] += 1
        if seen[c] <= 2:
            kept.append(c)
    if not rules.exact:  # the brute force tries every sub-multiset: keep it small
        kept = rng.sample(kept, min(len(kept), 12))
    return tuple(sorted(kept))


@pytest.mark.parametrize(("players", "options"), _params())
def test_down_list_is_complete_and_canonical(players: int, options: Options) -> None:
    """MI-CON-1..3, MI-MELD-1..3: the listed ways of going down are exactly the distinct
    contract meld sets of the hand (checked against brute force), each once, each in
    canonical order."""
    rules = build(players, options)
    rng = random.Random(players * 31 + len(options))
    nonempty = 0
    for hand_no in range(rules.deals):
        for _ in range(12):
            hand = meldy_hand(rules, hand_no, rng)
            listed = [tuple(m.cards for m in c) for c in contract_melds(rules, hand_no, hand)]
            assert len(listed) == len(set(listed)), hand
            assert all(canonical_groups(g) == g for g in listed)
            assert _norm(listed) == _norm(brute_downs(rules, hand_no, hand)), (hand_no, hand)
            nonempty += bool(listed)
    assert nonempty >= rules.deals * 3
