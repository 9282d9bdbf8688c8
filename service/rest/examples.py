"""One example request and answer per RPC, for the OpenAPI document (``/openapi.json``).

Each is a real call in one classic game for two (seed 8236417): the deal, seat 0's draw,
then the hand played out by its host (draw, discard the first card listed, decline the
pile once the stock is out; the hand ends at seq 75) and the next hand dealt. Seat 0 calls LegalMoves,
ApplyMove, GetView and SuggestMove, the host ScoreHand, NextDeal and the exports. Shortened:
a snapshot is its clear header alone (``Q1MC`` is the sealed format's magic), credentials
are placeholders, long lists are trimmed (what is shown is in the real list, in its order).
``tests/service/test_api_document.py`` checks that each one is its message in proto3 JSON,
matches the document's schema, and is what the live service answers to its request.
"""

from __future__ import annotations

import base64
import uuid
from typing import Any

from service.sealing.snapshot import FORMAT_VERSION, Header

KEY_ID = "k-2026-12"
GAME = "71f88b7c-5731-75d6-4e33-a4d3b40ec6dd"
IMPORTED = "2b0e4c58-93d1-4f6a-8c27-5e1d9a3b7f40"  # ImportPosition starts a new game
HOST = "ct1.host.k-2026-12.gZIWhfSMRVDXeYXAEGaxow"
SEATS = ["ct1.s0.k-2026-12.WBcm8-lCLH8SBbYS1Clilg", "ct1.s1.k-2026-12.c1_K_CP0CJXWAO5K7V-u2w"]
IMPORTED_HOST = "ct1.host.k-2026-12.Pq4L0vXcT2mYh8sRj1nA6w"
IMPORTED_SEATS = ["ct1.s0.k-2026-12.d9Kx3bQe7uVt0wZr5yLm2g",
                  "ct1.s1.k-2026-12.H6nW1pFa8cYs4jTq0xRk7A"]
OVER_SEQ = 75  # the seq once the first hand is played out


def _header(seq: int, imported: bool = False) -> dict[str, Any]:
    return {"formatVersion": FORMAT_VERSION, "keyId": KEY_ID, "variant": "classic",
            "gameId": IMPORTED if imported else GAME, "seq": str(seq), "imported": imported,
            "stacked": False}


def _snapshot(seq: int, imported: bool = False) -> str:
    """The clear header of the snapshot :func:`_header` describes, its sealed part cut."""
    game = uuid.UUID(IMPORTED if imported else GAME).bytes
    clear = Header(FORMAT_VERSION, KEY_ID, "classic", game, seq, imported).encode()
    return base64.b64encode(clear).decode("ascii")


SNAPSHOT, NEXT, OVER = _snapshot(0), _snapshot(1), _snapshot(OVER_SEQ)


def _side(team: int, red_threes: list[str], score: int = 0, minimum: int = 50
          ) -> dict[str, Any]:
    return {"team": team, "seats": [team], "score": score, "minimum": minimum,
            "opened": False, "pileFrozen": True, "melds": [], "redThrees": red_threes,
            "nextMinimum": 0}


def _view(phase: str, hand: list[str], stock: int, legal: list[str], total: int
          ) -> dict[str, Any]:
    """Seat 0's view in the first hand; ``legal`` trimmed from ``total`` moves."""
    return {"seat": 0, "variant": "classic", "players": 2, "handNo": 0, "dealer": 1,
            "phase": phase, "turnSeat": 0, "awaited": 0, "hand": hand,
            "handSizes": [len(hand), 15], "stockSize": stock, "pileSize": 1, "pileTop": "QH",
            "pile": [], "pileFrozen": False, "sides": [_side(0, ["3D"]), _side(1, [])],
            "asked": False, "answer": "", "staged": [], "legalMoves": legal, "result": [],
            "wentOut": -1, "winner": -1, "seatRedThrees": [{"cards": ["3D"]}, {"cards": []}],
            "upcards": ["QH"], "legalMovesTotal": total, "targetScore": 5000,
            "deals": 0, "seatsInPlay": [0, 1], "drawCount": 2, "canastasToGoOut": 2,
            "wildLimit": 3, "meldSide": [0, 1], "loneHand": -1,
            "outNeedsSequence": False}


def _event(kind: str, seat: int, move: str = "", cards: list[str] | None = None,
           count: int = 0) -> dict[str, Any]:
    return {"type": f"EVENT_TYPE_{kind}", "seat": seat, "move": move, "cards": cards or [],
            "count": count, "team": -1}


HAND = ["2S", "2D", "4S", "4H", "5S", "5C", "6S", "6S", "9S", "9H", "TC", "JD", "JC", "QH",
        "QC"]
DRAWN = ["2S", "2D", "3S", "4S", "4H", "5S", "5C", "6S", "6S", "9S", "9H", "9D", "TC", "JD",
         "JC", "QH", "QC"]
DRAW = {"text": "draw", "draw": {}}
TAKE = {"text": "take QH QC 2S", "takePile": {"cards": ["QH", "QC", "2S"], "extras": [],
                                               "target": ""}}
TAKE_TO_MELD = {"text": "take QH QC / JD JC 2S", "takePile": {
    "cards": ["QH", "QC"], "extras": [{"cards": ["JD", "JC", "2S"]}], "target": ""}}
MELD = {"text": "meld 9S 9H 9D 2S 2D",
        "meld": {"groups": [{"cards": ["9S", "9H", "9D", "2S", "2D"]}]}}
DEALT_VIEW = _view("draw", HAND, 76, ["draw", "take QH QC / JD JC 2S", "take QH QC 2S"], 13)
DEALT = {
    "snapshot": SNAPSHOT, "header": _header(0), "views": [DEALT_VIEW],
    "events": [_event("HAND_DEALT", 1), _event("RED_THREES_LAID", 0, cards=["3D"]),
               _event("TURN_STARTED", 0)],
    "hostToken": HOST, "seatTokens": SEATS,
}
# seat 0's view of the second hand: seat 1 (left of the dealer, seat 0) is to draw
NEXT_HAND_VIEW = {
    **_view("draw", ["2D", "3S", "3C", "3C", "4C", "6D", "7C", "9H", "9H", "TC", "JD", "KD",
                     "AH", "AH", "AD"], 77, [], 0),
    "handNo": 1, "dealer": 0, "turnSeat": 1, "awaited": 1, "pileTop": "QS",
    "sides": [_side(0, [], -475, 15), _side(1, [], -790, 15)],
    "seatRedThrees": [{"cards": []}, {"cards": []}], "upcards": ["QS"]}
POSITION = """canasta-position 1
variant: classic
players: 2
options: -
seed: 8236417
hand: 0
dealer: 1
ply: 0
scores: 0 0
phase: draw
turn: 0
drew: -
asked: 0 - draw
created: -
flags: 0 0
stock: QS KD KC 6D 7C JK 4C 5C KS JK 8S 4D JH JK 7D 9H AS 6H KH 3D 7S 4C 8D 5D 2D TH \
8C 2C QD 7S JH JS TD KS 9D QC KC 6C TD JS JK AH 5S TH QD JC 8C AC 6H 5H AH QS 9C 5D TS 4S \
TC KH AD 2S 3S 5H KD 7D 9C AD AS 3C 7H 8H TS AC 4H 3H 3S 9D
pile: QH
hand0: 2S 2D 4S 4H 5S 5C 6S 6S 9S 9H TC JD JC QH QC
hand1: 2H 2H 2C 3H 3C 4D 6D 6C 7H 7C 8S 8H 8D 9S JD
melds0: -
melds1: -
red3_0: 3D
red3_1: -
opened: 0 0
melded: 0 0
pending_red3: 0 1
asks: 0 0
penalties: 0 0
upcards: QH
"""
RECORD = """canasta-record 1
variant: classic
players: 2
options: -
seed: 8236417
dealer: 1

hand 0
{dealt 0: 2S 2D 4S 4H 5S 5C 6S 6S 9S 9H TC JD JC QH QC}
{dealt 1: 2H 2H 2C 3H 3C 4D 6D 6C 7H 7C 8S 8H 8D 9S JD}
0 draw {0 drew 3S 9D}
"""


def _score(team: int, in_hand: int) -> dict[str, Any]:
    return {"team": team, "seats": [team], "total": -100 - in_hand,
            "cumulative": -100 - in_hand, "breakdown": {
                "base": 0, "naturalCanastas": 0, "mixedCanastas": 0, "canastaBonus": 0,
                "goingOut": 0, "redThrees": 1, "redThreePoints": -100, "inHand": in_hand,
                "penalties": 0, "canastas": []}}


def _points(cards: str, meld: int, in_hand: int, minimum: bool = True,
            red_three: bool = False) -> dict[str, Any]:
    return {"cards": cards.split(), "meld": meld, "inHand": in_hand,
            "countsTowardMinimum": minimum, "redThree": red_three, "options": []}


# CL-DECK-4 as ListVariants states it: what each card counts, every card once
CLASSIC_CARD_POINTS = [
    _points("JK", 50, 50), _points("AS AH AD AC 2S 2H 2D 2C", 20, 20),
    _points("KS KH KD KC QS QH QD QC JS JH JD JC TS TH TD TC 9S 9H 9D 9C 8S 8H 8D 8C", 10, 10),
    _points("7S 7H 7D 7C 6S 6H 6D 6C 5S 5H 5D 5C 4S 4H 4D 4C 3S 3C", 5, 5),
    _points("3H 3D", 0, 0, minimum=False, red_three=True)]

# RPC name -> (request body, answer); ListVariants takes no body.
EXAMPLES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "ListVariants": ({}, {"variants": [{
        "id": "classic", "name": "Classic Canasta", "minPlayers": 2, "maxPlayers": 6,
        "options": [{"name": "red3_dealt_timing", "type": "OPTION_TYPE_CHOICE",
                     "defaultValue": "first_turn", "choices": ["first_turn", "after_deal"],
                     "minimum": 0, "rule": "CL-R3-1",
                     "description": "when dealt red threes are laid and replaced",
                     "aliases": [], "maximum": 0}],
        "tables": [{"players": 2, "packs": 2, "jokers": 4, "cards": 108, "handSize": 15,
                    "drawCount": 2, "seatsInPlay": [{"seats": [0, 1]}],
                    "sides": [{"seats": [0]}, {"seats": [1]}], "handSizes": [],
                    "canastasToGoOut": 2, "wildLimit": 3, "targetScore": 5000,
                    "deals": 0, "cardPoints": CLASSIC_CARD_POINTS}]}]}),
    "Deal": ({"variant": "classic", "players": 2, "seed": "8236417", "viewSeat": 0}, DEALT),
    "LegalMoves": ({"snapshot": SNAPSHOT}, {
        "seat": 0, "moves": [DRAW, TAKE_TO_MELD, TAKE], "phase": "draw", "nextPageToken": "",
        "totalSize": 13}),
    "ApplyMove": (
        {"snapshot": SNAPSHOT, "move": DRAW, "expectedSeq": "0", "viewSeat": 0},
        {"snapshot": NEXT, "header": _header(1), "move": DRAW, "seat": 0, "awaited": 0,
         "handOver": False, "gameOver": False,
         "events": [_event("MOVE_PLAYED", 0, move="draw"),
                    _event("CARDS_DRAWN", 0, cards=["3S", "9D"], count=2)],
         "views": [_view("meld", DRAWN, 74, ["meld 9S 9H 9D", "discard 3S"], 31)]}),
    "ScoreHand": ({"snapshot": NEXT}, {
        "sides": [_score(0, 155), _score(1, 140)], "handOver": False, "gameOver": False,
        "wentOut": -1, "concealed": False, "winner": -1, "draw": False}),
    "GetView": ({"snapshot": SNAPSHOT, "seat": 0}, {"views": [DEALT_VIEW]}),
    "NextDeal": ({"snapshot": OVER, "expectedSeq": str(OVER_SEQ), "viewSeat": 0}, {
        "snapshot": _snapshot(OVER_SEQ + 1), "header": _header(OVER_SEQ + 1),
        "views": [NEXT_HAND_VIEW],
        "events": [_event("HAND_DEALT", 0), _event("TURN_STARTED", 1)],
        "hostToken": HOST, "seatTokens": SEATS}),
    "ImportPosition": ({"position": POSITION, "viewSeat": 0}, {
        "snapshot": _snapshot(0, imported=True), "header": _header(0, imported=True),
        "views": [DEALT_VIEW], "hostToken": IMPORTED_HOST, "seatTokens": IMPORTED_SEATS}),
    "ExportPosition": ({"snapshot": SNAPSHOT}, {"position": POSITION, "header": _header(0)}),
    "ExportRecord": ({"snapshot": NEXT, "record": RECORD},
                     {"record": RECORD, "header": _header(1)}),
    "SuggestMove": ({"snapshot": NEXT, "level": "greedy", "seed": "42"},
                    {"seat": 0, "move": MELD, "level": "greedy"}),
}
