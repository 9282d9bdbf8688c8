"""Leak test: a role learns nothing it may not see, from any RPC (CL-INFO-1..6).

For every variant and player count, positions are taken along a seeded hand.
For each role (a spectator, and each seat through its own credential) a *twin*
of the position is made that differs only in what that role may not see: the
cards of the hidden zones (the other hands and the stock; for a spectator every
hand) are dealt out again at random, which exchanges cards between them and
reorders the stock, with every count kept (in the Canasta games a red three
goes only to the stock or to a seat yet to begin a turn, where play may leave
one unseen); the stock cards that the role's own tested moves draw stay (it
sees those once drawn). Both positions are sealed as the same game and every
RPC is called on each with the role's credential, over gRPC; the two answers
must be identical once the snapshots are taken out, and the snapshots as long
(the seal hides their bytes, not their length; the game id and credentials are
the same by construction). A leak anywhere (a view, a legal move, an event, a
score, a bot's choice, a refusal's reason or message, a snapshot's length)
makes two answers differ.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from grpc_status import rpc_status

from engine import Phase, apply, new_game
from engine.bots import random_move
from engine.cards import CODES, parse_card
from engine.codec import encode_state
from engine.deck import shuffled_deck
from engine.errors import EngineError
from engine.legal import legal_moves_for
from engine.mayi.state import AnyState, MayIState
from engine.mayi.successor import evolve as mayi_evolve
from engine.moves import parse_move
from engine.state import evolve
from service.api.pb import api, api_grpc, game
from service.sealing.snapshot import new_game_id
from tests.service.helpers import Failure, auth, grpc_failure
from tests.service.servers import Running, running
from tests.twins import twin

GAMES = [("classic", 2, {}), ("classic", 3, {}), ("classic", 4, {}), ("classic", 5, {}),
         ("classic", 6, {}), ("samba", 4, {}), ("bolivia", 4, {}), ("bolivia_sevens", 4, {}),
         ("may_i", 3, {}), ("may_i", 4, {}), ("may_i", 5, {"buy_priority": "first_call"})]
POSITIONS = 5  # per hand: spread over its plies, a May I? buy window among them
MOVES_TRIED = 3  # of the acting seat's legal moves, applied
LEVELS = ("random", "greedy", "expert")
BUDGET = 8  # the expert's playouts: a few sampled deals, enough to show a peek, cheap


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Running, api_grpc.CanastaEngineStub]]:
    with running() as server:
        channel, stub = server.stub()
        with channel:
            yield server, stub


def positions(variant: str, players: int, options: dict[str, str], seed: int) -> list[AnyState]:
    """States along one seeded hand (awaited seat set), and its end if it ends."""
    rng = random.Random(seed)
    state = new_game(variant, players, seed=seed, options=options)
    seen: list[AnyState] = []
    for _ in range(2000):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        seen.append(state)
        state = apply(state, random_move(state, rng))
    step = max(1, len(seen) // POSITIONS)
    picked = seen[::step][:POSITIONS]
    windows = [s for s in seen if s.phase is Phase.BUY_WINDOW]
    if windows:
        picked.append(windows[len(windows) // 2])
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        picked.append(state)
    return picked


def tried_moves(state: AnyState, seat: int) -> list[Any]:
    """The moves of ``seat`` the test applies: a few of its legal ones."""
    moves = legal_moves_for(state, seat) if seat >= 0 else []
    if len(moves) <= MOVES_TRIED:
        return list(moves)
    return [moves[0], moves[len(moves) // 2], moves[-1]]


def drawn_by(state: AnyState, seat: int) -> int:
    """How many stock cards, from the top, the seat's tried moves take."""
    most = 0
    for move in tried_moves(state, seat):
        most = max(most, len(state.stock) - len(apply(state, move, seat).stock))
    return most


def answer(stub: api_grpc.CanastaEngineStub, method: str, request: Message,
           token: str | None) -> tuple[int, Message] | tuple[str, str, str, Any]:
    """The answer as (its snapshot's length, the rest), or the refusal as (code, reason,
    message, every detail of its status)."""
    try:
        resp = getattr(stub, method)(request, metadata=auth(token), timeout=30)
    except grpc.RpcError as err:
        f: Failure = grpc_failure(err)
        return (f.code, f.reason, f.message, refusal_details(err))
    size = -1
    if "snapshot" in resp.DESCRIPTOR.fields_by_name:
        size = len(resp.snapshot)
        resp.ClearField("snapshot")
    return size, resp


def refusal_details(err: grpc.RpcError) -> Any:
    """Every detail of a refusal's status (the ErrorInfo's metadata, such as the rule ID,
    the BadRequest's field and description, the localized message) but the request id,
    which each call has its own: a detail too may not depend on what the role cannot see."""
    status = json_format.MessageToDict(rpc_status.from_call(err))
    for detail in status.get("details", []):
        detail.get("metadata", {}).pop("request_id", None)
    return status


def calls(state: AnyState, seat: int, snapshot: bytes) -> Iterator[tuple[str, Message]]:
    """Every RPC a role might send on this snapshot."""
    players = state.rules.players
    yield "GetView", api.GetViewRequest(snapshot=snapshot)
    for s in (-1, *range(players)):
        yield "GetView", api.GetViewRequest(snapshot=snapshot, seat=s)
    yield "LegalMoves", api.LegalMovesRequest(snapshot=snapshot)
    # a page: its next_page_token names the length of the role's list (AIP-158)
    yield "LegalMoves", api.LegalMovesRequest(snapshot=snapshot, page_size=1)
    yield "ScoreHand", api.ScoreHandRequest(snapshot=snapshot)
    for level in LEVELS:
        yield "SuggestMove", api.SuggestMoveRequest(snapshot=snapshot, level=level, seed=5,
                                                    budget=BUDGET)
    yield "ExportPosition", api.ExportPositionRequest(snapshot=snapshot)
    # a record that does not reach this position: its refusal must not describe the position
    yield "ExportRecord", api.ExportRecordRequest(snapshot=snapshot, record="")
    yield "NextDeal", api.NextDealRequest(snapshot=snapshot)
    for move in tried_moves(state, seat):
        yield "ApplyMove", api.ApplyMoveRequest(snapshot=snapshot, move=game.Move(text=str(move)))
    # probes: another seat's move, and moves with cards hidden from the role
    awaited = state.awaited
    if awaited >= 0 and awaited != seat:
        for move in tried_moves(state, awaited)[:1]:
            yield "ApplyMove", api.ApplyMoveRequest(snapshot=snapshot,
                                                    move=game.Move(text=str(move)))
    hidden = sorted({CODES[c] for s, h in enumerate(state.hands) if s != seat for c in h})
    for code in hidden[:3]:
        for text in (f"discard {code}", f"meld {code} {code} {code}"):
            yield "ApplyMove", api.ApplyMoveRequest(snapshot=snapshot, move=game.Move(text=text))


def check_role(server: Running, stub: api_grpc.CanastaEngineStub, state: AnyState, seat: int,
               rng: random.Random) -> int:
    """Both twins answer ``seat`` (-1: a spectator) alike; the number of calls compared."""
    other = twin(state, seat, drawn_by(state, seat), rng)
    sealer = server.app.core.sealer
    game_id = new_game_id()
    a = sealer.seal(state, game_id, 3, False)[0]
    b = sealer.seal(other, game_id, 3, False)[0]
    # the padding hides a few bytes; the encoding itself must not vary either
    assert len(encode_state(state)) == len(encode_state(other)) and len(a) == len(b), seat
    _, seats = server.app.core.access.credentials(game_id, state.rules.players)
    token = seats[seat] if seat >= 0 else None
    compared = 0
    for (method, req_a), (_, req_b) in zip(calls(state, seat, a), calls(state, seat, b),
                                           strict=True):
        got_a, got_b = answer(stub, method, req_a, token), answer(stub, method, req_b, token)
        assert got_a == got_b, (method, str(req_a)[:120], seat, got_a, got_b)
        compared += 1
    return compared


@pytest.mark.parametrize(("variant", "players", "options"), GAMES,
                         ids=[f"{v}-{p}{'-' + '-'.join(o.values()) if o else ''}"
                              for v, p, o in GAMES])
def test_no_answer_depends_on_what_the_role_cannot_see(
        served: tuple[Running, api_grpc.CanastaEngineStub], variant: str, players: int,
        options: dict[str, str]) -> None:
    server, stub = served
    rng = random.Random(f"{variant}{players}")
    compared = 0
    states = positions(variant, players, options, seed=players * 7 + len(variant))
    assert len(states) >= POSITIONS
    for state in states:
        for seat in (-1, *range(players)):
            compared += check_role(server, stub, state, seat, rng)
    assert compared > 100 * players


def test_the_twins_differ_where_the_role_cannot_see() -> None:
    """The check has teeth: a twin differs from its position in the hidden hands and the
    stock (so a leak would show), never in the role's own hand or the table."""
    state = positions("classic", 4, {}, seed=3)[2]
    other = twin(state, 1, 0, random.Random(1))
    assert other.hands[1] == state.hands[1] and other.melds == state.melds
    assert other.pile == state.pile and other.stock != state.stock
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
    assert any(other.hands[s] != state.hands[s] for s in (0, 2, 3))
    assert sorted(other.stock + sum(other.hands, ())) == sorted(state.stock + sum(state.hands, ()))


def test_a_dealt_red_three_is_hidden_until_its_seat_lays_it(
        served: tuple[Running, api_grpc.CanastaEngineStub]) -> None:
    """CL-R3-1, CL-INFO-6: a red three dealt to a seat stays in its hand, unseen, until that
    seat's first turn. Two classic deals that differ only in whether a later seat was dealt
    one (or it lies at the bottom of the stock) give the first seat the same views, the same
    expert advice and snapshots of the same length (the expert once assumed the red three
    where it was, and the snapshot wrote whether a seat held one)."""
    _, stub = served
    rules = new_game("classic", 4, seed=11).rules
    deck = [CODES[c] for c in shuffled_deck(rules, random.Random(11))]
    deck = [c for c in deck if c not in ("3H", "3D")] + ["3H", "3D", "3H", "3D"]  # at the bottom
    order = new_game("classic", 4, seed=11, deck=[parse_card(c) for c in deck]).order
    first, later = order[0], order[2]
    dealt_to_later = next(k for k in range(44) if order[k % 4] == later)
    other = list(deck)
    other[dealt_to_later], other[-1] = other[-1], other[dealt_to_later]
    answers = []
    for cards in (deck, other):
        dealt = stub.Deal(api.DealRequest(variant="classic", players=4, seed=11, deck=cards,
                                          view_seat=first))
        token = dealt.seat_tokens[first]
        drew = stub.ApplyMove(api.ApplyMoveRequest(snapshot=dealt.snapshot,
                                                   move=game.Move(text="draw")),
                              metadata=auth(token))
        advice = [stub.SuggestMove(api.SuggestMoveRequest(snapshot=drew.snapshot, level="expert",
                                                          seed=seed, budget=64),
                                   metadata=auth(token)).move.text for seed in range(30)]
        view = stub.GetView(api.GetViewRequest(snapshot=drew.snapshot), metadata=auth(token))
        answers.append((len(dealt.snapshot), len(drew.snapshot), list(dealt.views),
                        list(view.views), advice))
    assert answers[0] == answers[1]


# Rule options that change what is dealt, drawn, laid or bought (the games above play the
# defaults): each takes its own code paths through the rules and the views.
OPTION_GAMES = [
    ("classic", 4, {"red3_dealt_timing": "after_deal", "penalties": "true",
                    "permission_yes": "penalty", "reveal_discard_pile": "true"}),
    ("classic", 3, {"p3_mode": "cutthroat", "black_three_freezes": "true"}),
    ("classic", 2, {"stock_empty_ends_hand": "true", "p2_draw_count": "1"}),
    ("samba", 4, {"samba.ask_partner": "true", "samba.red3_last_card_ends": "false"}),
    ("bolivia", 4, {"bolivia.after_stock": "single_chance", "bolivia.going_out": "hoyle"}),
    ("bolivia_sevens", 4, {"sv.bonus_per_side": "true"}),
    ("may_i", 4, {"buy_penalty_cards": "2", "turn_upcard": "true",
                  "down_players_may_buy": "false", "out_requires_discard": "true"}),
]


@pytest.mark.parametrize(("variant", "players", "options"), OPTION_GAMES,
                         ids=[f"{v}-{p}-{'-'.join(o)}" for v, p, o in OPTION_GAMES])
def test_no_answer_depends_on_what_the_role_cannot_see_with_options(
        served: tuple[Running, api_grpc.CanastaEngineStub], variant: str, players: int,
        options: dict[str, str]) -> None:
    """CL-INFO-1..6 under rule options other than the defaults (cutthroat, red threes laid
    at the deal, May I?'s two-card buy, ...): the same twin check, a few positions each."""
    server, stub = served
    rng = random.Random(f"{variant}{players}{options}")
    compared = 0
    for state in positions(variant, players, options, seed=players * 5 + len(options))[:4]:
        for seat in (-1, *range(players)):
            compared += check_role(server, stub, state, seat, rng)
    assert compared > 50 * players


def _stock_top_twin(state: AnyState, rng: random.Random) -> AnyState | None:
    """``state`` with its top stock cards exchanged for deeper ones (``None`` when the
    stock is too short): what only a draw may show."""
    stock = list(state.stock)
    if len(stock) < 8:
        return None
    for top in range(1, 4):  # the top card is the last
        deeper = rng.randrange(len(stock) - 3)
        stock[-top], stock[deeper] = stock[deeper], stock[-top]
    if tuple(stock) == state.stock:
        return None
    if isinstance(state, MayIState):
        return mayi_evolve(state, stock=tuple(stock))
    return evolve(state, stock=tuple(stock))


@pytest.mark.parametrize(("variant", "players", "options"), GAMES,
                         ids=lambda v: str(v))
def test_the_stock_top_is_hidden_until_drawn(
        served: tuple[Running, api_grpc.CanastaEngineStub], variant: str, players: int,
        options: dict[str, str]) -> None:
    """CL-INFO-2, MI-TURN-3: the twins of the property above keep the stock cards the role's
    own moves draw (it sees them once drawn), so there they cannot show a peek at them before
    the draw: a seat about to draw, or to buy, learning its next card from its view, its
    legal moves, the bots' advice or a refusal. Here the twin differs in those top cards
    alone, and every call that draws nothing must answer both alike."""
    server, stub = served
    rng = random.Random(f"top{variant}{players}")
    sealer = server.app.core.sealer
    compared = 0
    for state in positions(variant, players, options, seed=players * 11 + len(variant)):
        other = _stock_top_twin(state, rng)
        if other is None:
            continue
        game_id = new_game_id()
        a, b = (sealer.seal(s, game_id, 3, False)[0] for s in (state, other))
        _, seats = server.app.core.access.credentials(game_id, players)
        for seat in (-1, *range(players)):
            token = seats[seat] if seat >= 0 else None
            for (method, req_a), (_, req_b) in zip(calls(state, seat, a), calls(state, seat, b),
                                                   strict=True):
                if (isinstance(req_a, api.ApplyMoveRequest) and seat >= 0
                        and _draws(state, seat, req_a.move.text)):
                    continue  # a draw shows its seat the card: its answer may differ
                got_a, got_b = answer(stub, method, req_a, token), answer(stub, method, req_b, token)
                assert got_a == got_b, (method, str(req_a)[:120], seat, got_a, got_b)
                compared += 1
    assert compared > 50 * players


def _draws(state: AnyState, seat: int, text: str) -> bool:
    """Whether ``seat``'s move ``text`` takes a card off the stock (a refused move takes none)."""
    try:
        return apply(state, parse_move(text), seat).stock != state.stock
    except EngineError:
        return False


SEED_GAMES = [("classic", 4, {}), ("samba", 4, {}), ("bolivia", 4, {}), ("may_i", 4, {})]


@pytest.mark.parametrize(("variant", "players", "options"), SEED_GAMES, ids=lambda v: str(v))
def test_no_answer_depends_on_the_seed(
        served: tuple[Running, api_grpc.CanastaEngineStub], variant: str, players: int,
        options: dict[str, str]) -> None:
    """The seed is as secret as the stock it deals (docs/security.md), but the twins above
    keep it. Here a twin differs in the seed alone, of one digit where the position's has
    twenty (a seed of ``secrets.randbits(64)`` has 19 or 20): every role gets every answer
    alike, snapshot lengths included (the sealed encoding writes the seed in decimal, so
    before the seal hid its digits a snapshot was 32 bytes longer at 2 positions in 3).
    NextDeal deals the next hand from the seed (its seat sees its new cards), and the
    record of a fresh first deal is replayed from its seed (no seed twin is a deal of its
    seed): those two calls are left out."""
    server, stub = served
    sealer = server.app.core.sealer
    compared = 0
    for state in positions(variant, players, options, seed=2**64 - 1 - players):
        ev = mayi_evolve if isinstance(state, MayIState) else evolve
        other = ev(state, seed=7)
        game_id = new_game_id()
        a, b = (sealer.seal(s, game_id, 3, False)[0] for s in (state, other))
        _, seats = server.app.core.access.credentials(game_id, players)
        fresh = state.hand_no == 0 and state.ply == 0
        for seat in (-1, *range(players)):
            token = seats[seat] if seat >= 0 else None
            for (method, req_a), (_, req_b) in zip(calls(state, seat, a), calls(state, seat, b),
                                                   strict=True):
                if method == "NextDeal" or (method == "ExportRecord" and fresh):
                    continue
                got_a, got_b = answer(stub, method, req_a, token), answer(stub, method, req_b, token)
                assert got_a == got_b, (method, str(req_a)[:120], seat, got_a, got_b)
                compared += 1
    assert compared > 50 * players
