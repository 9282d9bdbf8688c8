"""A host plays whole classic matches over REST with five routes only, echoing moves back.

The host never opens a snapshot: it deals, asks for the legal moves, sends one
of them back exactly as listed (JSON object in, JSON object out), scores each
finished hand and deals the next until the game is over. It also does the
compare-and-set a host owes (docs/security.md): each answer's seq is the
successor of the one it holds, and it sends ``expectedSeq``.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

MAX_MOVES = 4000


def _pick(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A quick-ending policy: go out when possible, meld most of the time, never undo."""
    texts = [m["text"] for m in moves]
    for i, text in enumerate(texts):
        if text.startswith(("out", "end")):
            return moves[i]
    melds = [m for m in moves if m["text"].startswith(("meld", "add"))]
    if melds and rng.random() < 0.9:
        return rng.choice(melds)
    others = [m for m in moves if m["text"] not in ("undo", "ask")] or moves
    return rng.choice(others)


def _post(http: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    resp = http.post(path, json=body)
    assert resp.status_code == 200, resp.text
    data: dict[str, Any] = resp.json()
    return data


def play_match(http: httpx.Client, players: int, seed: int) -> tuple[int, dict[str, Any]]:
    """Play to the end; returns the number of hands and the last score."""
    rng = random.Random(seed)
    deal = _post(http, "/v1/deal", {"variant": "classic", "players": players, "seed": str(seed),
                                    "options": {"target_score": "1500"}})
    snapshot, seq = deal["snapshot"], int(deal["header"]["seq"])
    game_id = deal["header"]["gameId"]
    hands, totals = 1, [0] * len(deal["views"][0]["sides"])
    for _ in range(MAX_MOVES):
        legal = _post(http, "/v1/legal-moves", {"snapshot": snapshot})
        assert legal["moves"], legal
        move = _pick(legal["moves"], rng)
        applied = _post(http, "/v1/apply-move", {"snapshot": snapshot, "move": move,
                                                 "expectedSeq": str(seq)})
        assert applied["move"]["text"] == move["text"]
        assert applied["seat"] == legal["seat"]
        assert applied["header"]["gameId"] == game_id
        assert int(applied["header"]["seq"]) == seq + 1  # the host's compare-and-set
        snapshot, seq = applied["snapshot"], seq + 1
        if not applied["handOver"]:
            continue
        score = _post(http, "/v1/score-hand", {"snapshot": snapshot})
        assert score["handOver"] is True
        for side in score["sides"]:
            totals[side["team"]] += side["total"]
            assert side["cumulative"] == totals[side["team"]]
        if applied["gameOver"]:
            assert score["gameOver"] is True
            assert score["winner"] >= 0 or score["draw"]
            return hands, score
        nxt = _post(http, "/v1/next-deal", {"snapshot": snapshot, "expectedSeq": str(seq)})
        snapshot, seq, hands = nxt["snapshot"], seq + 1, hands + 1
        assert int(nxt["header"]["seq"]) == seq
    raise AssertionError(f"{players} players: no game end in {MAX_MOVES} moves")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_match_over_rest(players: int, http: httpx.Client) -> None:
    hands, score = play_match(http, players, seed=1)
    assert hands >= 1
    winner = score["winner"]
    if winner >= 0:
        cumulative = {s["team"]: s["cumulative"] for s in score["sides"]}
        assert cumulative[winner] == max(cumulative.values()) >= 1500


def test_a_match_spans_several_hands(http: httpx.Client) -> None:
    """Some matches need several hands, so next-deal is really part of the loop."""
    assert any(play_match(http, 4, seed)[0] > 1 for seed in range(2, 8))
