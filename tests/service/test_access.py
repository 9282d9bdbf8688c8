"""What each role gets from each RPC, as built (service/api/access.py; docs/security.md).

The leak test (test_leaks.py) shows that no answer depends on what a role may not
see; these tests show what each role does get: the host everything, a seat its
own view, moves and private events, a spectator the public table.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import grpc
import pytest

from engine import apply, new_game
from engine.cards import CODES
from engine.legal import legal_moves
from engine.mayi.moves import Buy
from engine.mayi.state import AnyState
from engine.moves import Draw, Move, TakePile
from engine.views import provisional_score
from service.api import convert
from service.api.pb import api, api_grpc, game
from service.ops.config import AccessMode
from tests.service.helpers import Failure, call_grpc, ok
from tests.service.servers import running


def _deal(stub: api_grpc.CanastaEngineStub, variant: str = "classic", players: int = 4,
          seed: int = 21, **options: str) -> api.DealResponse:
    return ok(call_grpc(stub, "Deal", api.DealRequest(variant=variant, players=players,
                                                      seed=seed, options=options)))


def test_credentials_name_one_role_each(stub: api_grpc.CanastaEngineStub) -> None:
    deal = _deal(stub)
    tokens = [deal.host_token, *deal.seat_tokens]
    assert len(set(tokens)) == 5 and all(len(t) < 64 for t in tokens)
    assert [t.split(".")[1] for t in tokens] == ["host", "s0", "s1", "s2", "s3"]
    assert _deal(stub).host_token != deal.host_token  # another game, another credential


def test_a_seat_sees_and_does_what_its_seat_may(stub: api_grpc.CanastaEngineStub) -> None:
    deal = _deal(stub)
    host, seats = deal.host_token, list(deal.seat_tokens)
    everyone = ok(call_grpc(stub, "GetView", api.GetViewRequest(snapshot=deal.snapshot),
                            token=host)).views
    assert [v.seat for v in everyone] == [0, 1, 2, 3]
    for s, token in enumerate(seats):
        (own,) = ok(call_grpc(stub, "GetView", api.GetViewRequest(snapshot=deal.snapshot),
                              token=token)).views
        assert own == everyone[s]
        (public,) = ok(call_grpc(stub, "GetView", api.GetViewRequest(
            snapshot=deal.snapshot, seat=-1), token=token)).views
        assert public.seat == -1 and not public.hand and not public.legal_moves
    # seat 0 is awaited: its moves; seat 1 waits: none, and who is awaited
    mine = ok(call_grpc(stub, "LegalMoves", api.LegalMovesRequest(snapshot=deal.snapshot),
                        token=seats[0]))
    assert [m.text for m in mine.moves] == list(everyone[0].legal_moves)
    waiting = ok(call_grpc(stub, "LegalMoves", api.LegalMovesRequest(snapshot=deal.snapshot),
                           token=seats[1]))
    assert (waiting.seat, list(waiting.moves), waiting.phase) == (0, [], "draw")
    # seat 1 cannot move out of turn; seat 0 moves without naming itself
    refused = call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=deal.snapshot, move=game.Move(text="draw")), token=seats[1])
    assert isinstance(refused, Failure) and refused.reason == "NOT_YOUR_TURN"
    drew = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=deal.snapshot, move=game.Move(text="draw")), token=seats[0]))
    (view,) = drew.views
    assert drew.seat == 0 and view.seat == 0
    (drawn,) = [e for e in drew.events if e.type == game.EVENT_TYPE_CARDS_DRAWN]
    new = set(view.hand) - set(everyone[0].hand)
    assert drawn.seat == 0 and drawn.count == len(drawn.cards) >= 1
    assert new <= set(drawn.cards)  # the drawer is told what it drew
    # the host asking for seat 2's view after seat 0's move, as seat 0 may not
    by_host = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=deal.snapshot, move=game.Move(text="draw"), view_seat=2), token=host))
    assert [v.seat for v in by_host.views] == [2]
    assert [e for e in by_host.events if e.type == game.EVENT_TYPE_CARDS_DRAWN] == [drawn]


def test_a_spectator_sees_the_table_only(stub: api_grpc.CanastaEngineStub) -> None:
    deal = _deal(stub)
    (public,) = ok(call_grpc(stub, "GetView", api.GetViewRequest(snapshot=deal.snapshot))).views
    assert public.seat == -1 and not public.hand and not public.legal_moves
    assert list(public.hand_sizes) == [11, 11, 11, 11]
    for method, request in (
            ("LegalMoves", api.LegalMovesRequest(snapshot=deal.snapshot)),
            ("ApplyMove", api.ApplyMoveRequest(snapshot=deal.snapshot,
                                               move=game.Move(text="draw"))),
            ("SuggestMove", api.SuggestMoveRequest(snapshot=deal.snapshot)),
            ("GetView", api.GetViewRequest(snapshot=deal.snapshot, seat=0)),
            ("ExportPosition", api.ExportPositionRequest(snapshot=deal.snapshot))):
        got = call_grpc(stub, method, request)
        assert isinstance(got, Failure), method
        assert (got.code, got.reason) == ("UNAUTHENTICATED", "CREDENTIAL_REQUIRED"), method


def test_events_show_private_cards_to_their_owner_alone() -> None:
    """CARDS_DRAWN and PILE_TAKEN carry the cards for the seat that got them and the host;
    every other seat and a spectator get the same events without them."""
    state = new_game("classic", 4, seed=9)
    nxt = apply(state, Draw())
    drawn = sorted(set(nxt.hands[0]) - set(state.hands[0]))
    host = convert.move_events(state, Draw(), 0, nxt)
    own = convert.move_events(state, Draw(), 0, nxt, viewer=0)
    assert host == own
    (event,) = [e for e in own if e.type == game.EVENT_TYPE_CARDS_DRAWN]
    assert {CODES[c] for c in drawn} <= set(event.cards)
    assert sorted(event.cards) == sorted(CODES[c] for c in state.stock[len(nxt.stock):])
    for viewer in (-1, 1, 2, 3):
        other = convert.move_events(state, Draw(), 0, nxt, viewer=viewer)
        assert [(e.type, e.seat, e.count) for e in other] == [(e.type, e.seat, e.count)
                                                              for e in own]
        assert not any(e.cards for e in other if e.type == game.EVENT_TYPE_CARDS_DRAWN)


def _before_a_take(variant: str, players: int, seed: int) -> tuple[AnyState, Move]:
    """A position where a take of the pile is listed (discarding when it can), and the take."""
    state = new_game(variant, players, seed=seed)
    for _ in range(400):  # play on until a take is listed
        moves = legal_moves(state)
        takes = [m for m in moves if str(m).startswith("take")]
        if takes:
            return state, takes[0]
        state = apply(state, next((m for m in moves if str(m).startswith("discard")), moves[0]))
    raise AssertionError("no take in 400 moves (pick another seed)")


def _taken(state: AnyState, move: Move, viewer: int | None) -> list[tuple[int, list[str]]]:
    """The PILE_TAKEN events of ``move`` as ``viewer`` sees them: (count, cards)."""
    nxt = apply(state, move)
    return [(e.count, list(e.cards)) for e in convert.move_events(
        state, move, state.awaited, nxt, viewer) if e.type == game.EVENT_TYPE_PILE_TAKEN]


def test_pile_taken_shows_the_pile_to_the_taker() -> None:
    state, take = _before_a_take("classic", 2, 4)
    seat = state.awaited
    assert _taken(state, take, seat) == [(len(state.pile), [CODES[c] for c in state.pile])]
    assert _taken(state, take, 1 - seat) == [(len(state.pile), [])]


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("samba", 4),
                                                  ("bolivia", 4), ("bolivia_sevens", 4)])
def test_a_canasta_pile_take_stays_the_takers(variant: str, players: int) -> None:
    """The Canasta games hide the pile below its top, so the cards of a take stay the
    taker's and the host's, unlike a May I? take's."""
    state, take = _before_a_take(variant, players, 4)
    seat, every = state.awaited, [CODES[c] for c in state.pile]
    for viewer in (None, seat):
        assert _taken(state, take, viewer) == [(len(every), every)]
    for viewer in (-1, *(s for s in range(players) if s != seat)):
        assert _taken(state, take, viewer) == [(len(every), [])]


def test_a_may_i_take_shows_the_pile_top_to_every_role() -> None:
    """May I? (MI-TURN-3): a take brings the pile's top, which every view showed face up, so
    its PILE_TAKEN names that card to every role; the other seats and a spectator were told
    "seat 0 took the pile (1 card)" alone. A buy's penalty cards and the turn player's draw
    come from the stock, hidden: they stay their seat's and the host's."""
    state = new_game("may_i", 4, seed=3, options={"turn_upcard": "true",
                                                  "buy_penalty_cards": "2"})
    top = CODES[state.pile[-1]]
    for viewer in (None, -1, 0, 1, 2, 3):
        assert _taken(state, TakePile(), viewer) == [(1, [top])], viewer
    window = apply(state, Draw())
    buyer = window.awaited
    bought = apply(window, Buy())
    drawn = {e.seat: list(e.cards) for e in convert.move_events(window, Buy(), buyer, bought)
             if e.type == game.EVENT_TYPE_CARDS_DRAWN}
    assert {s: len(c) for s, c in drawn.items()} == {buyer: 2, 0: 1}
    assert top not in drawn[buyer]  # the card bought is told by no event: the buy's top
    for viewer in (-1, 0, 1, 2, 3):
        seen = convert.move_events(window, Buy(), buyer, bought, viewer)
        assert not any(e.type == game.EVENT_TYPE_PILE_TAKEN for e in seen)
        assert {e.seat: list(e.cards) for e in seen if e.type == game.EVENT_TYPE_CARDS_DRAWN} \
            == {s: cards if s == viewer else [] for s, cards in drawn.items()}, viewer


def test_scores_count_only_the_hands_a_role_sees(stub: api_grpc.CanastaEngineStub) -> None:
    deal = _deal(stub)
    state = new_game("classic", 4, seed=21)
    full = ok(call_grpc(stub, "ScoreHand", api.ScoreHandRequest(snapshot=deal.snapshot),
                        token=deal.host_token))
    assert [s.breakdown.in_hand for s in full.sides] == [
        s.in_hand for s in provisional_score(state)]
    for seat in range(4):
        mine = ok(call_grpc(stub, "ScoreHand", api.ScoreHandRequest(snapshot=deal.snapshot),
                            token=deal.seat_tokens[seat]))
        alone = sum(state.rules.values[c] for c in state.hands[seat])
        assert [s.breakdown.in_hand for s in mine.sides] == [
            alone if seat in s.seats else 0 for s in mine.sides]
    public = ok(call_grpc(stub, "ScoreHand", api.ScoreHandRequest(snapshot=deal.snapshot)))
    assert [s.breakdown.in_hand for s in public.sides] == [0, 0]


def test_next_deal_by_a_seat_keeps_the_credentials_with_the_host(
        stub: api_grpc.CanastaEngineStub) -> None:
    position = "\n".join([
        "canasta-position 1", "variant: classic", "players: 2", "phase: hand_over",
        "hand0: *11", "hand1: *11", "stock: *", "melds0: -", "melds1: -", "result: -1 0", ""])
    start = ok(call_grpc(stub, "ImportPosition", api.ImportPositionRequest(position=position)))
    by_seat = ok(call_grpc(stub, "NextDeal", api.NextDealRequest(snapshot=start.snapshot),
                           token=start.seat_tokens[1]))
    assert [v.seat for v in by_seat.views] == [1]
    assert not by_seat.host_token and not by_seat.seat_tokens
    by_host = ok(call_grpc(stub, "NextDeal", api.NextDealRequest(snapshot=start.snapshot),
                           token=start.host_token))
    assert (by_host.host_token, list(by_host.seat_tokens)) == (start.host_token,
                                                               list(start.seat_tokens))
    assert by_host.views[1] == by_seat.views[0]  # the deal follows from the snapshot alone


def test_may_i_buyers_answer_the_window_with_their_own_credential(
        stub: api_grpc.CanastaEngineStub) -> None:
    """With buy_priority=first_call every seat in the window may answer out of turn
    (MI-BUY-3): such a seat lists buy/pass, is advised, and buys with its credential."""
    deal = _deal(stub, "may_i", 5, seed=3, buy_priority="first_call")
    snapshot, host, seats = deal.snapshot, deal.host_token, list(deal.seat_tokens)
    for _ in range(200):
        view = ok(call_grpc(stub, "GetView", api.GetViewRequest(snapshot=snapshot, seat=-1),
                            token=host)).views[0]
        if view.phase == "buy_window":
            break
        legal = ok(call_grpc(stub, "LegalMoves", api.LegalMovesRequest(snapshot=snapshot),
                             token=host))
        move = next((m for m in legal.moves if m.text == "draw"), legal.moves[-1])
        snapshot = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
            snapshot=snapshot, move=move), token=host)).snapshot
    else:
        raise AssertionError("no buy window in 200 moves (pick another seed)")
    window = ok(call_grpc(stub, "LegalMoves", api.LegalMovesRequest(snapshot=snapshot),
                          token=host))
    later = next(s for s in range(5) if s != window.seat and ok(call_grpc(
        stub, "LegalMoves", api.LegalMovesRequest(snapshot=snapshot), token=seats[s])).moves)
    listed = ok(call_grpc(stub, "LegalMoves", api.LegalMovesRequest(snapshot=snapshot),
                          token=seats[later]))
    assert listed.seat == window.seat and [m.text for m in listed.moves] == ["buy", "pass"]
    hint = ok(call_grpc(stub, "SuggestMove", api.SuggestMoveRequest(snapshot=snapshot),
                        token=seats[later]))
    assert hint.seat == later and hint.move.text in ("buy", "pass")
    bought = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=snapshot, move=game.Move(text="buy")), token=seats[later]))
    assert bought.seat == later and [v.seat for v in bought.views] == [later]
    drawn = {e.seat: list(e.cards) for e in bought.events
             if e.type == game.EVENT_TYPE_CARDS_DRAWN}
    assert drawn[later] and all(not cards for s, cards in drawn.items() if s != later)


@pytest.fixture
def trusted(caplog: pytest.LogCaptureFixture) -> Iterator[api_grpc.CanastaEngineStub]:
    with caplog.at_level(logging.WARNING), running(access=AccessMode.TRUSTED) as server:
        channel, stub = server.stub()
        with channel:
            yield stub


def test_trusted_mode_makes_a_call_without_credential_the_host(
        trusted: api_grpc.CanastaEngineStub, caplog: pytest.LogCaptureFixture) -> None:
    assert any("CANASTA_ACCESS=trusted" in r.getMessage() for r in caplog.get_records("setup"))
    deal = _deal(trusted)
    views = ok(call_grpc(trusted, "GetView", api.GetViewRequest(snapshot=deal.snapshot))).views
    assert [len(v.hand) for v in views] == [11, 11, 11, 11]
    ok(call_grpc(trusted, "ApplyMove", api.ApplyMoveRequest(snapshot=deal.snapshot,
                                                            move=game.Move(text="draw"))))
    # a credential sent is still checked and still scopes the answer
    (own,) = ok(call_grpc(trusted, "GetView", api.GetViewRequest(snapshot=deal.snapshot),
                          token=deal.seat_tokens[2])).views
    assert own.seat == 2
    forged = call_grpc(trusted, "GetView", api.GetViewRequest(snapshot=deal.snapshot),
                       token=deal.seat_tokens[2][:-2] + "xx")
    assert isinstance(forged, Failure) and forged.reason == "CREDENTIAL_INVALID"


def test_tokens_mode_refuses_the_same_calls() -> None:
    with running() as server:
        channel, stub = server.stub()
        with channel:
            deal = _deal(stub)
            with pytest.raises(grpc.RpcError) as err:
                stub.ApplyMove(api.ApplyMoveRequest(snapshot=deal.snapshot,
                                                    move=game.Move(text="draw")), timeout=10)
            assert err.value.code() is grpc.StatusCode.UNAUTHENTICATED
