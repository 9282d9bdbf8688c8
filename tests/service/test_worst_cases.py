"""Forged giants: ImportPosition refuses what play cannot produce, and what it accepts
answers within the documented worst case (docs/operations.md, *Worst cases*).

Sizes are checked here (deterministic); the time of the same calls is a benchmark
(``bench/limits_bench.py`` in ``make bench``), not a test.
"""

from __future__ import annotations

import httpx
import pytest

from engine.legal import legal_moves
from engine.notation import import_position
from service.api.pb import api, api_grpc, game
from tests.service.helpers import Failure, call_grpc, call_rest, ok
from tests.worst_positions import PAGED, WORST

MAX_JSON = 256 * 1024


@pytest.mark.parametrize("name", sorted(WORST))
def test_the_largest_accepted_positions_answer_within_bounds(http: httpx.Client,
                                                             name: str) -> None:
    imported = ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(
        position=WORST[name], view_seat=-1)))
    resp = http.post("/v1/legal-moves", json={"snapshot": _b64(imported.snapshot)},
                     headers={"authorization": f"Bearer {imported.host_token}"})
    assert resp.status_code == 200, resp.text
    assert len(resp.json()["moves"]) > 100  # a real worst case, not a trivial position
    assert len(resp.content) < MAX_JSON, (name, len(resp.content))


@pytest.mark.parametrize("name", sorted(PAGED))
def test_lists_of_thousands_come_a_page_at_a_time(http: httpx.Client, name: str) -> None:
    """MI-CON-2 (sets of any size) and MI-BUY-2 (two penalty cards) let play reach lists
    of thousands of moves: each REST answer stays under the bound, and the pages, followed
    by their tokens, give the engine's whole list once, in its order."""
    imported = ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(
        position=PAGED[name], view_seat=-1)))
    engine = [str(m) for m in legal_moves(import_position(PAGED[name]))]
    assert len(engine) > 1000  # more than one page
    got: list[str] = []
    body: dict[str, object] = {"snapshot": _b64(imported.snapshot)}
    pages = 0
    while True:
        resp = http.post("/v1/legal-moves", json=body,
                         headers={"authorization": f"Bearer {imported.host_token}"})
        assert resp.status_code == 200, resp.text
        assert len(resp.content) < MAX_JSON, (name, pages, len(resp.content))
        answer = resp.json()
        assert answer["totalSize"] == len(engine)
        got += [m["text"] for m in answer["moves"]]
        pages += 1
        if not answer["nextPageToken"]:
            break
        body = {"snapshot": body["snapshot"], "pageToken": answer["nextPageToken"]}
    assert got == engine
    assert pages == -(-len(engine) // 1000)


@pytest.mark.parametrize("name", sorted(PAGED))
def test_views_carry_the_first_thousand_moves_and_their_count(http: httpx.Client,
                                                              name: str) -> None:
    """A view's legal_moves (every seat's views, for the host) are cut at 1,000, with
    legal_moves_total the whole count, so GetView stays under the bound too."""
    imported = ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(
        position=PAGED[name], view_seat=-1)))
    engine = [str(m) for m in legal_moves(import_position(PAGED[name]))]
    resp = http.post("/v1/view", json={"snapshot": _b64(imported.snapshot)},
                     headers={"authorization": f"Bearer {imported.host_token}"})
    assert resp.status_code == 200, resp.text
    assert len(resp.content) < MAX_JSON, (name, len(resp.content))
    mover = resp.json()["views"][0]
    assert mover["legalMoves"] == engine[:1000]
    assert mover["legalMovesTotal"] == len(engine)


def test_page_size_and_tokens_over_grpc(stub: api_grpc.CanastaEngineStub) -> None:
    """A smaller page size is kept, a larger one lowered to the maximum; a token is valid
    only for the list it came from: another position's, a forged or a negative page size
    is INVALID_ARGUMENT on its field, never a wrong page."""
    position = PAGED["may_i three sets, any sizes"]
    imported = ok(call_grpc(stub, "ImportPosition", api.ImportPositionRequest(
        position=position, view_seat=-1)))
    host = imported.host_token
    everything = [str(m) for m in legal_moves(import_position(position))]

    def page(**fields: object) -> api.LegalMovesResponse | Failure:
        return call_grpc(stub, "LegalMoves", api.LegalMovesRequest(
            snapshot=imported.snapshot, **fields), token=host)

    first = ok(page(page_size=7))
    assert [m.text for m in first.moves] == everything[:7]
    second = ok(page(page_size=7, page_token=first.next_page_token))
    assert [m.text for m in second.moves] == everything[7:14]
    assert len(ok(page(page_size=10**6)).moves) == 1000
    moved = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=imported.snapshot, move=game.Move(text="discard 8S"), view_seat=-1),
        token=host))
    for fields, field in [({"page_token": "bm90IGEgdG9rZW4"}, "page_token"),
                          ({"page_token": first.next_page_token + "x"}, "page_token"),
                          ({"page_size": -1}, "page_size")]:
        got = page(**fields)
        assert isinstance(got, Failure)
        assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "REQUEST_INVALID",
                                                      [field]), fields
    other = call_grpc(stub, "LegalMoves", api.LegalMovesRequest(
        snapshot=moved.snapshot, page_token=first.next_page_token), token=host)
    assert isinstance(other, Failure) and other.fields == ["page_token"]


@pytest.mark.parametrize(("hand", "buys", "why"), [
    ("*83", "0 0 0", "holds 83 cards"),
    ("*12", "0 0 0", "holds 12 cards"),  # ten dealt and one drawn: eleven at most
    ("*14", "4 0 0", "claims 4 buys"),  # over max_buys_per_deal (3)
])
def test_may_i_hands_play_cannot_make_are_refused(http: httpx.Client, hand: str, buys: str,
                                                  why: str) -> None:
    """MI-DEAL-2, MI-BUY-2, MI-BUY-5: the hand of a seat in deal 0 holds the ten dealt, the
    turn's draw and two cards per buy, at most three buys."""
    position = "\n".join(["mayi-position 1", "variant: may_i", "players: 3", "phase: meld",
                          "turn: 0", "drew: stock", f"buys: {buys}", f"hand0: {hand}",
                          "hand1: *1", "hand2: *1", "stock: *", ""])
    got = call_rest(http, "ImportPosition", api.ImportPositionRequest(position=position))
    assert isinstance(got, Failure)
    assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "POSITION_OUT_OF_BOUNDS",
                                                  ["position"])
    assert why in got.message


@pytest.mark.parametrize("players", [2, 4])
def test_a_turn_nobody_can_move_in_is_refused(http: httpx.Client, players: int) -> None:
    """CL-TURN-1, CL-OUT-1, CL-OUT-4: play never leaves the player in turn without a move.
    Here the seat in turn holds one card in the meld phase with nothing staged: it can
    neither meld the card nor discard it (that would be going out, with no canasta); with
    a partner it may ask, and after the answer it has nothing to do. ImportPosition
    refuses what play cannot produce; it accepted both before."""
    hands = [f"hand{seat}: *11" for seat in range(1, players)]
    position = "\n".join(["canasta-position 1", f"players: {players}", "phase: meld",
                          "turn: 0", "drew: stock", "hand0: 9D", *hands, "stock: *", ""])
    got = call_rest(http, "ImportPosition", api.ImportPositionRequest(position=position))
    assert isinstance(got, Failure)
    assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "POSITION_OUT_OF_BOUNDS",
                                                  ["position"])
    assert "nobody can move in this meld phase" in got.message


def test_unlimited_buys_are_capped_at_import_only(http: httpx.Client) -> None:
    """With max_buys_per_deal=none the rules set no bound: ImportPosition still accepts at
    most three buys per seat (a service limit, docs/operations.md)."""
    base = ["mayi-position 1", "variant: may_i", "players: 3",
            "options: max_buys_per_deal=none", "phase: meld", "turn: 0", "drew: stock"]
    fine = base + ["buys: 3 0 0", "hand0: *17", "hand1: *1", "hand2: *1", "stock: *", ""]
    ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(position="\n".join(fine))))
    many = base + ["buys: 30 0 0", "hand0: *83", "hand1: *1", "hand2: *1", "stock: *", ""]
    got = call_rest(http, "ImportPosition", api.ImportPositionRequest(position="\n".join(many)))
    assert isinstance(got, Failure) and got.reason == "POSITION_OUT_OF_BOUNDS"


def _b64(blob: bytes) -> str:
    import base64

    return base64.b64encode(blob).decode()


@pytest.mark.parametrize(("line", "value", "why"), [
    ("scores: 0 0", "scores: 3000000000 0", "a score of 3000000000"),
    ("scores: 0 0", "scores: 0 -99999999999999999999", "a score of -99999999999999999999"),
    ("penalties: 0 0", "penalties: 3000000000 0", "a penalty total of 3000000000"),
    ("hand: 0", "hand: 3000000000", "hand 3000000000"),
])
def test_numbers_beyond_what_play_makes_are_refused(http: httpx.Client, line: str, value: str,
                                                    why: str) -> None:
    """A score, a hand's penalty points or a hand number beyond what play makes and the
    API's 32-bit fields carry is refused at import with a reason (engine/bounds.py). Each
    was accepted and then made every answer with a view fail as INTERNAL."""
    _refused_out_of_bounds(http, _dealt_position(http, "classic", 2, line), line, value, why)


def _dealt_position(http: httpx.Client, variant: str, players: int, line: str) -> str:
    """A fresh deal's position text (seed 5), which holds ``line``."""
    dealt = ok(call_rest(http, "Deal", api.DealRequest(variant=variant, players=players, seed=5)))
    position: str = ok(call_rest(http, "ExportPosition",
                                 api.ExportPositionRequest(snapshot=dealt.snapshot),
                                 token=dealt.host_token)).position
    assert line in position
    return position


def _refused_out_of_bounds(http: httpx.Client, position: str, line: str, value: str,
                           why: str) -> None:
    """``position`` with ``line`` made ``value`` is refused at import, saying ``why``."""
    got = call_rest(http, "ImportPosition",
                    api.ImportPositionRequest(position=position.replace(line, value)))
    assert isinstance(got, Failure)
    assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "POSITION_OUT_OF_BOUNDS",
                                                  ["position"])
    assert why in got.message


NINES = "9" * 4300  # the longest number Python reads (sys.get_int_max_str_digits)


@pytest.mark.parametrize(("variant", "line", "value", "why"), [
    ("classic", "ply: 0", f"ply: {NINES}", "a move count (ply) of 999"),
    ("classic", "asks: 0 0 0", f"asks: {NINES} 0 0", "a question count of 999"),
    ("may_i", "reshuffles: 0", f"reshuffles: {NINES}", "a reshuffle count of 999"),
])
def test_counts_beyond_what_play_makes_are_refused(http: httpx.Client, variant: str,
                                                   line: str, value: str, why: str) -> None:
    """The counts play adds one to (the hand's moves, a seat's questions, May I?'s
    reshuffles) hold 0 to 2^30 in an imported position (engine/bounds.py). A count of
    4,300 nines was read, and the next move (or the draw that reshuffled) failed as
    INTERNAL: one more has a digit more than Python writes. At the bound it plays on."""
    position = _dealt_position(http, variant, 3, line)
    _refused_out_of_bounds(http, position, line, value, why)
    played = ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(
        position=position.replace(line, value.replace(NINES, str(1 << 30))))))
    ok(call_rest(http, "ApplyMove", api.ApplyMoveRequest(
        snapshot=played.snapshot, move=game.Move(text="draw")), token=played.host_token))


@pytest.mark.parametrize(("variant", "players", "option"), [
    ("classic", 4, "target_score"), ("classic", 6, "p6_min150_threshold"),
    ("samba", 4, "samba.min_7000"), ("bolivia", 4, "bolivia.bolivia_bonus"),
    ("bolivia_sevens", 4, "sv.escalera_bonus"), ("may_i", 4, "max_buys_per_deal")])
def test_integer_options_above_a_million_are_refused(http: httpx.Client, variant: str,
                                                     players: int, option: str) -> None:
    """Every integer option is at most a million (engine/options.py, INT_OPTION_MAX), so
    no score or count play makes leaves the API's 32-bit fields: max_buys_per_deal of
    3,000,000,000 made Deal itself fail as INTERNAL, and a bonus beyond 2^31 the first
    answer to show a hand that made it."""
    deal = api.DealRequest(variant=variant, players=players, seed=1,
                           options={option: "1000001"})
    got = call_rest(http, "Deal", deal)
    assert isinstance(got, Failure)
    assert (got.code, got.reason) == ("INVALID_ARGUMENT", "BAD_OPTION_VALUE")
    assert f"option {option} must be at most 1000000" in got.message
    deal.options[option] = "1000000"
    ok(call_rest(http, "Deal", deal))
