"""What a client needs is in the contract (step 12, item 9): a client written from the docs
alone, over REST, writes a stacked deck and a position for every game from ListVariants'
facts only (no throwaway deal to count cards), and the views show the deal's upcards, each
seat's red threes and, in May I?, the deal's contract and buys left, to every role alike.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

RANKS, SUITS = "AKQJT98765432", "SHDC"
RED_THREES = ("3H", "3D")
# the cards a stacked Canasta deal turns up: a wild card and a wild card, covered, then a
# natural that stays (CL-DEAL-4, SA-DEAL-3)
UPCARDS = ["JK", "2C", "7H"]


def _post(http: httpx.Client, path: str, body: dict[str, Any],
          token: str | None = None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = http.post(path, json=body, headers=headers)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


@pytest.fixture(scope="module")
def variants(http: httpx.Client) -> dict[str, dict[str, Any]]:
    answer = http.get("/v1/variants")
    assert answer.status_code == 200
    return {v["id"]: v for v in answer.json()["variants"]}


def _tables(variants: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(vid, t) for vid, v in variants.items() for t in v["tables"]]


def _deck(table: dict[str, Any]) -> list[str]:
    """Every card of the game, from the table's composition alone."""
    return [r + s for _ in range(table["packs"]) for r in RANKS for s in SUITS] \
        + ["JK"] * table["jokers"]


def test_every_table_is_published(variants: dict[str, dict[str, Any]]) -> None:
    """ListVariants: one table per player count, a deck of packs * 52 + jokers, sides that
    hold every seat once, seats in play that deal hand_size cards each out of the deck; and
    every option's type, default, description and rule (target_score and tie_policy under
    one name, their former names as aliases: SA-GAME-1, BO-GAME-1, SV-GAME-1)."""
    assert set(variants) == {"classic", "samba", "bolivia", "bolivia_sevens", "may_i"}
    for vid, v in variants.items():
        counts = [t["players"] for t in v["tables"]]
        assert counts == list(range(v["minPlayers"], v["maxPlayers"] + 1)), vid
        for t in v["tables"]:
            assert t["cards"] == 52 * t["packs"] + t.get("jokers", 0) == len(_deck(t))
            assert sorted(s for side in t["sides"] for s in side["seats"]) \
                == list(range(t["players"])), vid
            for dealt in t["seatsInPlay"]:
                assert len(dealt["seats"]) * t["handSize"] < t["cards"], vid
            assert t["drawCount"] >= 1
        for o in v["options"]:
            assert o["type"] != "OPTION_TYPE_UNSPECIFIED" and o["description"] and o["rule"]
    aliases = {o["name"]: o.get("aliases", []) for o in variants["samba"]["options"]}
    assert aliases["target_score"] == ["samba.target"] and "tie_policy" in aliases
    sevens = {o["name"]: o for o in variants["bolivia_sevens"]["options"]}
    assert sevens["tie_policy"]["aliases"] == ["sv.tiebreak_extra_deal"]
    assert sevens["tie_policy"]["defaultValue"] == "draw"
    assert variants["may_i"]["tables"][0]["handSizes"]  # cards dealt per deal


def test_a_stacked_deck_for_every_game(http: httpx.Client,
                                       variants: dict[str, dict[str, Any]]) -> None:
    """A deck written from the facts alone deals every game: each seat in play gets
    hand_size cards, in dealing order from the dealer's left (seat 0 first in the first
    hand); the Canasta games show the upcards turned (CL-DEAL-4) and the red three dealt to
    seat 1 as seat 1's, laid at the deal in the Samba family (SA-DEAL-4) and at seat 1's
    first turn in classic (CL-R3-1); May I? shows the contract and buys left."""
    for vid, table in _tables(variants):
        dealt = table["seatsInPlay"][0]["seats"]
        n = len(dealt) * table["handSize"]
        deck = _deck(table)
        mayi = table["jokers"] == 0
        for card in ([] if mayi else UPCARDS) + ["3H"]:
            deck.remove(card)
        # red threes last (the stock's bottom), so no replacement draws one
        rest = sorted(deck, key=lambda c: c in RED_THREES)
        if mayi:
            order = rest[:1] + ["3H"] + rest[1:]
        else:
            order = rest[:1] + ["3H"] + rest[1:n - 1] + UPCARDS + rest[n - 1:]
        answer = _post(http, "/v1/deal", {"variant": vid, "players": table["players"],
                                          "deck": order, "viewSeat": -1})
        view = answer["views"][0]
        assert view["seat"] == -1
        sizes = view["handSizes"]
        assert [sizes[s] for s in dealt] == [table["handSize"]] * len(dealt), (vid, sizes)
        if mayi:
            assert view.get("upcards", []) == []
            defaults = {o["name"]: o.get("defaultValue") for o in variants[vid]["options"]}
            assert view["mayI"]["buysLeft"] == [int(defaults["max_buys_per_deal"])] \
                * table["players"]
            assert (view["mayI"]["sets"], view["mayI"].get("sequences", 0)) == (2, 0)
            continue
        assert view["upcards"] == UPCARDS, vid
        reds = [s.get("cards", []) for s in view["seatRedThrees"]]
        # seat 1 was dealt 3H; laid at once in the Samba family, at its first turn in classic
        want = ["3H"] if vid != "classic" else []
        assert reds == [[], want] + [[]] * (table["players"] - 2), (vid, reds)


def test_a_position_for_every_game(http: httpx.Client,
                                   variants: dict[str, dict[str, Any]]) -> None:
    """A position written from the facts alone imports for every game (hands of hand_size
    for the seats in play, the rest filled): the views show each seat's red threes apart
    (seat 0's and its partner's, not only their side's together), and the upcards the
    position records."""
    for vid, table in _tables(variants):
        dealt = table["seatsInPlay"][0]["seats"]
        side = next(s["seats"] for s in table["sides"] if 0 in s["seats"])
        partner = next((s for s in side if s != 0 and s in dealt), None)
        lines = ["canasta-position 1", f"variant: {vid}", f"players: {table['players']}"]
        lines += [f"hand{s}: *{table['handSize']}" for s in dealt]
        mayi = table["jokers"] == 0
        if not mayi:
            lines += ["red3_0: 3H", "upcards: 7H"]
            lines += [f"red3_{partner}: 3D 3H"] if partner is not None else []
        lines += ["pile: 9S", "stock: *"]
        answer = _post(http, "/v1/position:import", {"position": "\n".join(lines) + "\n"})
        host = answer["hostToken"]
        view = _post(http, "/v1/view", {"snapshot": answer["snapshot"], "seat": -1},
                     token=host)["views"][0]
        assert [view["handSizes"][s] for s in dealt] == [table["handSize"]] * len(dealt)
        if mayi:
            assert "mayI" in view and view.get("upcards", []) == []
            continue
        reds = [s.get("cards", []) for s in view["seatRedThrees"]]
        want = [["3H"] if s == 0 else ["3D", "3H"] if s == partner else []
                for s in range(table["players"])]
        assert reds == want, (vid, reds)
        team0 = next(s for s in view["sides"] if 0 in s["seats"])
        assert sorted(team0["redThrees"]) == sorted(["3H"] + (["3D", "3H"] if partner else []))
        assert view["upcards"] == ["7H"]


@pytest.mark.parametrize("vid", ["classic", "may_i"])
def test_public_table_facts_in_every_role(http: httpx.Client, vid: str) -> None:
    """The upcards, the red threes per seat and May I?'s contract and buys left lie open at
    a real table: the host, every seat and a spectator (no token) see the same values, while
    only the seat's own view carries its hand (step 9 roles, docs/security.md)."""
    deal = _post(http, "/v1/deal", {"variant": vid, "players": 4, "seed": "12"})
    snapshot = deal["snapshot"]
    public = ("upcards", "seatRedThrees", "mayI")

    def facts(token: str | None, seat: int) -> tuple[dict[str, Any], list[str]]:
        body: dict[str, Any] = {"snapshot": snapshot, "seat": seat}
        view = _post(http, "/v1/view", body, token=token)["views"][0]
        return {k: view.get(k) for k in public}, view.get("hand", [])

    host, _ = facts(deal["hostToken"], -1)
    assert bool(host["upcards"]) == (vid == "classic")
    assert (host["mayI"] is not None) == (vid == "may_i")
    assert facts(None, -1) == (host, [])
    for seat, token in enumerate(deal["seatTokens"]):
        mine, hand = facts(token, seat)
        assert mine == host and len(hand) > 0


# (variant, players) -> (drawCount, canastasToGoOut, wildLimit), from the rules' tables
TABLES = {("classic", 2): (2, 2, 3), ("classic", 3): (1, 1, 3), ("classic", 4): (1, 1, 3),
          ("classic", 5): (1, 1, 3), ("classic", 6): (1, 2, 3), ("samba", 4): (2, 2, 2),
          ("bolivia", 4): (2, 0, 2), ("bolivia_sevens", 4): (2, 0, 2), ("may_i", 3): (1, 0, 0),
          ("may_i", 4): (1, 0, 0), ("may_i", 5): (1, 0, 0)}


def test_each_table_says_how_it_draws_goes_out_and_melds_wild_cards(http: httpx.Client) -> None:
    """CL-OUT-1 (the canastas to go out by table shape: two with 2 or 6 players, else one),
    CL-P2-2 (two cards drawn with 2 players), CL-MELD-1 (at most 3 wild cards in a meld),
    SA-MELD-2 and SA-OUT-1 (Samba: 2 wild cards, two canastas), BO-OUT-1 (Bolivia: by
    default nobody goes out), May I? (no canastas, no wild cards): what a client shows
    without writing the rules again."""
    listed = http.get("/v1/variants").json()["variants"]
    got = {(v["id"], t["players"]): (t["drawCount"], t["canastasToGoOut"], t["wildLimit"])
           for v in listed for t in v["tables"]}
    assert got == TABLES
