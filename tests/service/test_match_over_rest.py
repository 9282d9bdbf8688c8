"""A host plays whole matches of every game over REST with five routes only, echoing
moves back.

The host never opens a snapshot: it deals and keeps the host credential; each
move is made by the awaited seat's player with that seat's credential, who asks
for its legal moves and its own view and sends one move back exactly as listed
(JSON object in, JSON object out) and sees its own view alone in the answer. The
host scores each finished hand and deals the next until the game is over. It also
does the compare-and-set a host owes (docs/security.md): each answer's seq is the
successor of the one it holds, and it sends ``expectedSeq`` and ``expectedGameId``.
The scores it reads from ``/v1/score-hand`` are the ones the views show (each
view's ``result``, then the next deal's side scores) and, once a hand is over, the
ones every seat reads.

Moves are picked client-side from the listed ones by a seeded heuristic that makes
matches end: go out (or go down and lay off in May I?) when listed, else meld most of
the time. Samba and Bolivia play to their real targets (SA-GAME-1: 10 000, BO-GAME-1:
15 000), Bolivia with sevens its four deals (SV-GAME-1), May I? its five deals
(MI-GAME-1, the lowest total wins: MI-GAME-2).
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

MAX_MOVES = 4000
# Moves that end the hand or reach the May I? contract: played whenever listed.
FINISHING = ("out", "end", "down", "layoff")
CLASSIC_MELDS = ("meld", "add")
# In the Samba family taking the pile melds its top card and merging builds canastas;
# in May I? `take` is only the turn's draw (taking the discard), not a meld.
FAMILY_MELDS = ("meld", "add", "take", "merge")


def _pick(moves: list[dict[str, Any]], rng: random.Random,
          melding: tuple[str, ...] = CLASSIC_MELDS) -> dict[str, Any]:
    """A quick-ending policy: go out (or down) when possible, meld most of the time,
    never undo nor ask."""
    texts = [m["text"] for m in moves]
    for i, text in enumerate(texts):
        if text.startswith(FINISHING):
            return moves[i]
    melds = [m for m in moves if m["text"].startswith(melding)] if melding else []
    if melds and rng.random() < 0.9:
        return rng.choice(melds)
    others = [m for m in moves if m["text"] not in ("undo", "ask")] or moves
    return rng.choice(others)


def _post(http: httpx.Client, path: str, body: dict[str, Any],
          token: str | None = None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    resp = http.post(path, json=body, headers=headers)
    assert resp.status_code == 200, resp.text
    data: dict[str, Any] = resp.json()
    return data


def _by_team(sides: list[dict[str, Any]], key: str) -> dict[int, int]:
    return {s["team"]: s.get(key, 0) for s in sides}


def play_match(http: httpx.Client, players: int, seed: int, variant: str = "classic",
               options: dict[str, str] | None = None,
               melding: tuple[str, ...] = CLASSIC_MELDS,
               max_moves: int = MAX_MOVES) -> tuple[int, dict[str, Any]]:
    """Play to the end; returns the number of hands and the last score."""
    rng = random.Random(seed)
    body: dict[str, Any] = {"variant": variant, "players": players, "seed": str(seed)}
    if options is not None:
        body["options"] = options
    deal = _post(http, "/v1/deal", body)
    snapshot, seq = deal["snapshot"], int(deal["header"]["seq"])
    assert seq == 0
    game_id = deal["header"]["gameId"]
    host, seats = deal["hostToken"], deal["seatTokens"]
    assert len(seats) == players
    awaited = deal["views"][0]["awaited"]
    hands, totals = 1, [0] * len(deal["views"][0]["sides"])
    for _ in range(max_moves):
        # each move is made by the awaited seat's player, with that seat's credential
        legal = _post(http, "/v1/legal-moves", {"snapshot": snapshot}, seats[awaited])
        assert legal["moves"] and legal["seat"] == awaited, legal
        texts = [m["text"] for m in legal["moves"]]
        (own,) = _post(http, "/v1/view", {"snapshot": snapshot}, seats[awaited])["views"]
        assert own["seat"] == own["awaited"] == awaited and own["legalMoves"] == texts
        move = _pick(legal["moves"], rng, melding)  # one of the listed moves, echoed as is
        applied = _post(http, "/v1/apply-move", {"snapshot": snapshot, "move": move,
                                                 "expectedSeq": str(seq),
                                                 "expectedGameId": game_id}, seats[awaited])
        assert applied["move"] == move  # an echoed listed move is its own canonical form
        assert applied["seat"] == awaited
        assert [v["seat"] for v in applied["views"]] == [awaited]  # the mover's view alone
        assert applied["header"]["gameId"] == game_id
        assert int(applied["header"]["seq"]) == seq + 1  # the host's compare-and-set
        snapshot, seq, awaited = applied["snapshot"], seq + 1, applied["awaited"]
        if not applied["handOver"]:
            continue
        score = _post(http, "/v1/score-hand", {"snapshot": snapshot}, host)
        assert score["handOver"] is True
        for side in score["sides"]:
            totals[side["team"]] += side["total"]
            assert side["cumulative"] == totals[side["team"]]
        views = _post(http, "/v1/view", {"snapshot": snapshot}, host)["views"]
        assert len(views) == players
        for view in views:  # every seat's view shows the score the host reads
            assert view["result"] == score["sides"]
        # once the hand is over, the score is public: every seat reads the host's
        for token in seats:
            assert _post(http, "/v1/score-hand", {"snapshot": snapshot}, token) == score
        if applied["gameOver"]:
            assert score["gameOver"] is True
            assert score["winner"] >= 0 or score["draw"]
            return hands, score
        assert score["gameOver"] is False and score["winner"] == -1
        nxt = _post(http, "/v1/next-deal", {"snapshot": snapshot, "expectedSeq": str(seq)}, host)
        snapshot, seq, hands = nxt["snapshot"], seq + 1, hands + 1
        assert (nxt["hostToken"], nxt["seatTokens"]) == (host, seats)  # the same game
        awaited = nxt["views"][0]["awaited"]
        assert int(nxt["header"]["seq"]) == seq and nxt["header"]["gameId"] == game_id
        cumulative = _by_team(score["sides"], "cumulative")
        for view in nxt["views"]:  # the next hand starts from the cumulative scores
            assert _by_team(view["sides"], "score") == cumulative
            assert view["handNo"] == hands - 1
    raise AssertionError(f"{variant}, {players} players: no game end in {max_moves} moves")


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


def _leaders(score: dict[str, Any], best: Any) -> list[int]:
    cumulative = _by_team(score["sides"], "cumulative")
    top = best(cumulative.values())
    return [team for team, points in cumulative.items() if points == top]


@pytest.mark.parametrize(("variant", "target"), [("samba", 10000), ("bolivia", 15000)])
def test_whole_family_match_to_its_target_over_rest(variant: str, target: int,
                                                    http: httpx.Client) -> None:
    """SA-GAME-1 / BO-GAME-1: the match goes on, hand after hand, until a side reaches
    the target (the default: no option shortens it)."""
    hands, score = play_match(http, 4, seed=1, variant=variant, melding=FAMILY_MELDS,
                              max_moves=3000)
    assert hands > 1
    cumulative = _by_team(score["sides"], "cumulative")
    assert max(cumulative.values()) >= target
    if score["draw"]:
        assert len(_leaders(score, max)) > 1 and score["winner"] == -1
    else:
        assert _leaders(score, max) == [score["winner"]]


def test_whole_bolivia_with_sevens_match_of_four_deals_over_rest(http: httpx.Client) -> None:
    """SV-GAME-1: a round of four deals; the higher total wins (a tie is a draw)."""
    hands, score = play_match(http, 4, seed=1, variant="bolivia_sevens", melding=FAMILY_MELDS,
                              max_moves=3000)
    assert hands == 4
    leaders = _leaders(score, max)
    if score["draw"]:
        assert len(leaders) > 1 and score["winner"] == -1
    else:
        assert leaders == [score["winner"]]


@pytest.mark.parametrize("players", [3, 4])
def test_whole_may_i_game_of_five_deals_over_rest(players: int, http: httpx.Client) -> None:
    """MI-GAME-1: the zioncheck5 schedule is five deals; MI-GAME-2: the lowest total wins."""
    hands, score = play_match(http, players, seed=1, variant="may_i", melding=(),
                              max_moves=6000)
    assert hands == 5
    assert len(score["sides"]) == players
    leaders = _leaders(score, min)
    if score["draw"]:
        assert len(leaders) > 1 and score["winner"] == -1
    else:
        assert leaders == [score["winner"]]
