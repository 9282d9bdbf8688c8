"""One example request and answer per RPC, for the OpenAPI document (``/openapi.json``).

Taken from a real classic game for two (seed 8236417, seat 0's view), shortened: the
snapshots are cut (``Q1MC`` is the sealed format's magic), the lists of legal moves
trimmed. ``tests/service/test_api_document.py`` checks that each one is its message in
proto3 JSON and matches the document's schema.
"""

from __future__ import annotations

from typing import Any

SNAPSHOT = "Q1MCAAlrLTIwMjYtMTIHY2xhc3NpY3H4i3xXMXXWTjOk07QOxt0AAAAA"
NEXT = "Q1MCAAlrLTIwMjYtMTIHY2xhc3NpY3H4i3xXMXXWTjOk07QOxt0AAAAB"
HOST = "ct1.host.k-2026-12.gZIWhfSMRVDXeYXAEGaxow"
SEATS = ["ct1.s0.k-2026-12.WBcm8-lCLH8SBbYS1Clilg", "ct1.s1.k-2026-12.c1_K_CP0CJXWAO5K7V-u2w"]
GAME = "71f88b7c-5731-75d6-4e33-a4d3b40ec6dd"


def _header(seq: int, imported: bool = False) -> dict[str, Any]:
    return {"formatVersion": 2, "keyId": "k-2026-12", "variant": "classic", "gameId": GAME,
            "seq": str(seq), "imported": imported, "stacked": False}


def _side(team: int, red_threes: list[str]) -> dict[str, Any]:
    return {"team": team, "seats": [team], "score": 0, "minimum": 50, "opened": False,
            "pileFrozen": True, "melds": [], "redThrees": red_threes}


def _view(phase: str, hand: list[str], stock: int, legal: list[str]) -> dict[str, Any]:
    return {"seat": 0, "variant": "classic", "players": 2, "handNo": 0, "dealer": 1,
            "phase": phase, "turnSeat": 0, "awaited": 0, "hand": hand,
            "handSizes": [len(hand), 15], "stockSize": stock, "pileSize": 1, "pileTop": "QH",
            "pile": [], "pileFrozen": False, "sides": [_side(0, ["3D"]), _side(1, [])],
            "asked": False, "answer": "", "staged": [], "legalMoves": legal, "result": [],
            "wentOut": -1, "winner": -1}


def _event(kind: str, seat: int, move: str = "", cards: list[str] | None = None,
           count: int = 0) -> dict[str, Any]:
    return {"type": f"EVENT_TYPE_{kind}", "seat": seat, "move": move, "cards": cards or [],
            "count": count, "team": -1}


HAND = ["2S", "2D", "4S", "4H", "5S", "5C", "6S", "6S", "9S", "9H", "TC", "JD", "JC", "QH",
        "QC"]
DRAWN = ["2S", "2D", "3S", "4S", "4H", "5S", "5C", "6S", "6S", "9S", "9H", "9D", "TC", "JD",
         "JC", "QH", "QC"]
DRAW = {"text": "draw", "draw": {}}
TAKE = {"text": "take QH QC 2S", "takePile": {"cards": ["QH", "QC", "2S"]}}
MELD = {"text": "meld 9S 9H 9D 2S 2D",
        "meld": {"groups": [{"cards": ["9S", "9H", "9D", "2S", "2D"]}]}}
DEALT = {
    "snapshot": SNAPSHOT, "header": _header(0),
    "views": [_view("draw", HAND, 76, ["draw", "take QH QC 2S", "take QH QC 2S 2D"])],
    "events": [_event("HAND_DEALT", 1), _event("RED_THREES_LAID", 0, cards=["3D"]),
               _event("TURN_STARTED", 0)],
    "hostToken": HOST, "seatTokens": SEATS,
}
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
                "penalties": 0}}


# RPC name -> (request body, answer); ListVariants takes no body.
EXAMPLES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "ListVariants": ({}, {"variants": [{
        "id": "classic", "name": "Classic Canasta", "minPlayers": 2, "maxPlayers": 6,
        "options": [{"name": "red3_dealt_timing", "type": "OPTION_TYPE_CHOICE",
                     "defaultValue": "first_turn", "choices": ["first_turn", "after_deal"],
                     "minimum": 0, "rule": "CL-R3-1",
                     "description": "when dealt red threes are laid and replaced"}]}]}),
    "Deal": ({"variant": "classic", "players": 2, "seed": "8236417", "viewSeat": 0}, DEALT),
    "LegalMoves": ({"snapshot": SNAPSHOT},
                   {"seat": 0, "moves": [DRAW, TAKE], "phase": "draw"}),
    "ApplyMove": (
        {"snapshot": SNAPSHOT, "move": DRAW, "expectedSeq": "0", "viewSeat": 0},
        {"snapshot": NEXT, "header": _header(1), "move": DRAW, "seat": 0, "awaited": 0,
         "handOver": False, "gameOver": False,
         "events": [_event("MOVE_PLAYED", 0, move="draw"),
                    _event("CARDS_DRAWN", 0, cards=["3S", "9D"], count=2)],
         "views": [_view("meld", DRAWN, 74, ["meld 9S 9H 9D", "discard 3S"])]}),
    "ScoreHand": ({"snapshot": NEXT}, {
        "sides": [_score(0, 155), _score(1, 140)], "handOver": False, "gameOver": False,
        "wentOut": -1, "concealed": False, "winner": -1, "draw": False}),
    "GetView": ({"snapshot": SNAPSHOT, "seat": 0}, {"views": DEALT["views"]}),
    "NextDeal": ({"snapshot": NEXT, "expectedSeq": "1"}, {**DEALT, "header": _header(2)}),
    "ImportPosition": ({"position": POSITION, "viewSeat": 0}, {
        "snapshot": SNAPSHOT, "header": _header(0, imported=True), "views": DEALT["views"],
        "hostToken": HOST, "seatTokens": SEATS}),
    "ExportPosition": ({"snapshot": SNAPSHOT}, {"position": POSITION, "header": _header(0)}),
    "ExportRecord": ({"snapshot": NEXT, "record": RECORD},
                     {"record": RECORD, "header": _header(1)}),
    "SuggestMove": ({"snapshot": NEXT, "level": "greedy", "seed": "42"},
                    {"seat": 0, "move": MELD, "level": "greedy"}),
}
