"""The reference host's pages in a browser: the index page (examples/host/static/index.js,
run by host_index.mjs), creating a table, and what it says when the rules service is away;
the seat page (seat.js, run by host_seat.mjs), what it shows of a table."""

from __future__ import annotations

import asyncio
import re
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import grpc
from canasta_client import CanastaClient, UnavailableError

from engine.state import Phase
from examples.host.store import SqliteStore, Table
from examples.host.tables import message_of
from tests.host.hosts import Host, Player, check_record, hosting, stored
from tests.service.servers import running
from tests.service.test_view_next_minimum import _hand_over
from tests.service.test_view_rule_counts import KINDS, kinds_position
from tests.web.test_web_table import CUTTHROAT, _in_browser


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_the_index_page_creates_a_table_and_says_when_it_cannot(tmp_path: Path) -> None:
    """With the rules service up, the page offers every game, four seats for classic, and
    creating a table shows its id and a join link for the person's seat (seat 0) beside the
    bots. With it away, /api/variants answers 502 UNAVAILABLE: the page says so and why, and
    its button is off (it stayed blank, reading the refusal as the list of games)."""
    with running() as rules, \
            hosting(tmp_path / "up.db", rules.grpc_target) as up, \
            hosting(tmp_path / "away.db", f"127.0.0.1:{_closed_port()}") as away:
        base = up.base
        result, done = _in_browser("host_index.mjs", base, away.base, timeout=120)
    assert result["problems"] == [] and done.returncode == 0, result
    before, after = result["up"]["before"], result["up"]["after"]
    assert {"classic", "samba", "bolivia", "bolivia_sevens", "may_i"} <= set(before["games"])
    assert before["seats"] == 4 and before["submit"] and before["error"] == "", before
    assert after["error"] == "" and len(after["gameId"]) == 36, after
    assert after["links"][0].startswith(f"Seat 0: {base}/play/{after['gameId']}/0#"), after
    assert after["links"][1:] == ["Seat 1: bot (random)", "Seat 2: bot (greedy)",
                                  "Seat 3: bot (greedy)"], after
    shown = result["away"]
    assert shown["error"].startswith("UNAVAILABLE: "), shown
    assert shown["error"].endswith(" Reload the page to try again."), shown
    assert shown["games"] == [] and not shown["submit"], shown
    # a 200 whose JSON is not the list of games: said, nothing offered (it threw, blank)
    odd = result["odd"]
    assert odd["error"].startswith("the host answered no list of games"), odd
    assert odd["games"] == [] and not odd["submit"], odd


def _link(base: str, table: Table, seat: int) -> str:
    return f"{base}/play/{table.game_id}/{seat}#{table.seat_tokens[seat]}"


def _seat_0_links(host: Host, db: Path, games: list[tuple[str, int, dict[str, Any]]]
                  ) -> list[str]:
    """A table per (variant, players, options), seat 0 a person and the others greedy bots:
    seat 0's link of each."""
    links = []
    for variant, players, options in games:
        table = host.create(variant, players, dict.fromkeys(range(1, players), "greedy"),
                            options)
        links.append(_link(host.base, stored(db, table["game_id"]), 0))
    return links


def test_the_seat_page_shows_a_may_i_table_and_a_game_over(tmp_path: Path) -> None:
    """A May I? side opens by its contract, with no minimum (0), and its melds have no
    label: the page said "needs 0 to open" and wrote each meld ": 5S 5H 5C". Like the web
    table, it shows the deal's contract and each seat's buys left (MI-BUY-5, MI-GAME-1: the
    first deal's two sets; three buys a deal), from the view's public `may_i`. A game over
    says so (it said "The hand is over." above "The game is over"), and each side's match
    score is the result's total "in all" (it was the total the hand started with). One card
    is "1 card" in the heaps' and the seats' lines (it read "1 cards")."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        done = host.create("classic", 2, {0: "greedy", 1: "greedy"}, {"target_score": 1})
        mayi = host.create("may_i", 3, {1: "greedy", 2: "greedy"})
        player = Player(host, mayi["seats"][0]["link"])
        deadline = time.monotonic() + 60
        while " down " not in stored(db, mayi["game_id"]).record:  # a meld on the table
            assert time.monotonic() < deadline, "nobody went down"
            player.drain(0.1)
            if player.my_turn() and player.state["seq"] == host.status(mayi["game_id"])["seq"]:
                player.play(player.pick())
        player.close()  # seat 0 moves no more: the table waits for it, melds and all
        while not host.status(done["game_id"])["game_over"]:
            assert time.monotonic() < deadline, "the bots did not finish their game"
            time.sleep(0.1)
        mayi_link = _link(host.base, stored(db, mayi["game_id"]), 0)
        result, ran = _in_browser("host_seat.mjs", mayi_link,
                                  _link(host.base, stored(db, done["game_id"]), 0),
                                  "--ones", mayi_link)
    assert result["problems"] == [] and ran.returncode == 0, result
    shown, over, ones = result["pages"]
    assert len(shown["sides"]) == 3 and shown["melds"], shown
    assert not any("needs 0" in side for side in shown["sides"]), shown
    assert all(re.match(r"^\S+ ", meld) and not meld.startswith(":") for meld in shown["melds"])
    assert over["status"] == "The game is over.", over
    totals = {m[1]: m[2] for line in over["result"]
              if (m := re.match(r"^Side (\d+): -?\d+ this hand, (-?\d+) in all$", line))}
    scores = {m[1]: m[2] for side in over["sides"]
              if (m := re.match(r"^Side (\d+) .*: match score (-?\d+)", side))}
    assert len(totals) == 2 and scores == totals, over
    assert shown["contract"] == "This deal's contract: 2 sets.", shown
    assert len(shown["seats"]) == 3, shown
    assert all(re.match(r"^.+: (1 card|\d+ cards), [0-3] buys? left", line)
               for line in shown["seats"]), shown
    assert over["contract"] == "" and not any("buy" in line for line in over["seats"]), over
    # one card is "1 card" (it read "1 cards": counts made 1 in the host's messages)
    assert ones["heaps"].startswith("Stock: 1 card. Discard pile: 1 card, top "), ones
    assert len(ones["seats"]) == 3, ones
    assert all(re.match(r"^.+: 1 card, [0-3] buys? left", line) for line in ones["seats"]), ones


def test_the_seat_page_says_the_match_target(tmp_path: Path) -> None:
    """The seat page says the score that ends the game as it was dealt, from the view's
    target_score: classic for four's 5000 (CL-GAME-1, by player count: no option's default
    says it) and a Samba table's created with target_score 12000 (SA-GAME-1); for May I?,
    whose deals end it (MI-GAME-1), the deal of how many instead
    (test_the_seat_page_says_the_deal_of_how_many). It said no target at all. The status
    line counts hands from 1, as that line and the web table do (it said "Hand 0"). A
    side's heading names its seats: "seat 0" for a side of one, as each May I? player is
    (it said "seats 0")."""
    db = tmp_path / "tables.db"
    games: list[tuple[str, int, dict[str, Any]]] = [
        ("classic", 4, {}), ("samba", 4, {"target_score": 12000}), ("may_i", 3, {})]
    with running() as rules, hosting(db, rules.grpc_target) as host:
        links = _seat_0_links(host, db, games)
        result, ran = _in_browser("host_seat.mjs", *links)
    assert result["problems"] == [] and ran.returncode == 0, result
    assert [page["target"] for page in result["pages"]] == [
        "The game is played to 5000.", "The game is played to 12000.", "Deal 1 of 5."
    ], result["pages"]
    assert all(re.match(r"^Hand 1, move \d+: ", page["status"]) for page in result["pages"]), \
        result["pages"]
    classic, _, mayi = result["pages"]
    assert [side.split(":")[0] for side in classic["sides"]] == [
        "Side 0 (seats 0, 2)", "Side 1 (seats 1, 3)"], classic
    assert [side.split(":")[0] for side in mayi["sides"]] == [
        "Side 0 (seat 0)", "Side 1 (seat 1)", "Side 2 (seat 2)"], mayi


def test_the_seat_page_says_the_deal_of_how_many(tmp_path: Path) -> None:
    """Where a number of deals ends the game the seat page says which deal this is of how
    many, from the view's hand_no and deals: Bolivia with sevens' round of four (SV-GAME-1;
    a deal past it only after a tie with tie_policy play_on), May I?'s five (MI-GAME-1,
    zioncheck5) and a table's created with the classic7 schedule, seven; the same tables
    shown at a later deal (hand_no 2 and 4). It said nothing: these games have no target."""
    db = tmp_path / "tables.db"
    games: list[tuple[str, int, dict[str, Any]]] = [
        ("bolivia_sevens", 4, {}), ("may_i", 3, {}), ("may_i", 4, {"schedule": "classic7"})]
    with running() as rules, hosting(db, rules.grpc_target) as host:
        links = _seat_0_links(host, db, games)
        result, ran = _in_browser("host_seat.mjs", *links, "--hand=2", *links, "--hand=4",
                                  links[0])
    assert result["problems"] == [] and ran.returncode == 0, result
    assert [page["target"] for page in result["pages"]] == [
        "Deal 1 of 4.", "Deal 1 of 5.", "Deal 1 of 7.",
        "Deal 3 of 4.", "Deal 3 of 5.", "Deal 3 of 7.",
        "Deal 5: another after a tie."], result["pages"]


def test_the_seat_page_draws_a_seat_out_of_the_hand_sitting_out(tmp_path: Path) -> None:
    """Classic with five players deals four seats each hand (CL-P5-2: seats 0 1 2 3 play
    the first): the seat the view's seats_in_play leaves out, seat 4, is drawn as the web
    table draws it, dashed, "sits this hand out" (its words, i18n.js) in place of its count
    of cards; it was drawn as a player holding 0 cards. A view without the field (an older
    service) draws every seat as before."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        [link] = _seat_0_links(host, db, [("classic", 5, {})])
        result, ran = _in_browser("host_seat.mjs", link, "--older", link)
    assert result["problems"] == [] and ran.returncode == 0, result
    shown, older = result["pages"]
    assert shown["out"] == [4], shown
    assert re.match(r"^seat 4 \(bot: greedy\): sits this hand out(, dealer)?$",
                    shown["seats"][4]), shown
    assert all(re.match(r"^(you|seat \d \(bot: greedy\)): \d+ cards?", line)
               for line in shown["seats"][:4]), shown
    assert older["out"] == [], older
    assert re.match(r"^seat 4 \(bot: greedy\): 0 cards(, dealer)?$", older["seats"][4]), older


def test_the_seat_page_says_you_sit_the_hand_out_and_the_order_of_play(tmp_path: Path) -> None:
    """Classic for five, seats 0 and 4 people: seat 4 sits the first hand out (CL-P5-2). Its
    page showed an empty hand and "seat 0 to move" as if its turn were coming; it now says,
    in the web table's words, that it sits the hand out (the status line's first sentence)
    and why it has no card nor move. Where a hand is not played round the table (the third,
    0, 3, 2, 4, CL-P5-3: the view's seats_in_play) the page says the order of play, from
    you, as the web table does; round the table it says none. Its own line among the seats
    says "you sit this hand out" (it read "you: sits this hand out")."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        created = host.create("classic", 5, dict.fromkeys(range(1, 4), "greedy"))
        deadline = time.monotonic() + 30
        while host.status(created["game_id"])["awaited"] != 0:  # the bots wait for seat 0
            assert time.monotonic() < deadline, "seat 0's move never came"
            time.sleep(0.1)
        table = stored(db, created["game_id"])
        mine, yours = _link(host.base, table, 4), _link(host.base, table, 0)
        result, ran = _in_browser("host_seat.mjs", mine, yours, "--third", yours)
    assert result["problems"] == [] and ran.returncode == 0, result
    out, playing, third = result["pages"]
    assert re.match(r"^You sit this hand out\. Hand 1, move \d+: seat 0 to move \(draw\)\.$",
                    out["status"]), out
    assert out["selection"] == "No cards for you this hand: you sit it out, with no turn in it."
    assert out["order"] == "" and out["out"] == [4], out
    assert out["seats"][4] == "you sit this hand out", out  # it read "you: sits this hand out"
    assert re.match(r"^Hand 1, move \d+: your move \(draw\)\.$", playing["status"]), playing
    assert playing["selection"].startswith("Pick a move") and playing["order"] == "", playing
    assert third["order"] == "Order of play this hand: you → seat 3 → seat 2 → seat 4", third


def test_the_seat_page_says_the_games_counts_as_dealt(tmp_path: Path) -> None:
    """The seat page says the cards a stock draw takes, the canastas a side needs to go out
    and the most wild cards in a meld of one rank as the game was dealt, options applied
    (the view's draw_count, canastas_to_go_out and wild_limit: classic for two with
    p2_draw_count 3 draws 3, CL-P2-2; May I? has neither canastas nor wild cards), in the
    web table's rules panel's words, and Bolivia hoyle's escalera among the canastas to go
    out (out_needs_sequence, BO-C1); a view without them (an older service) says none. It
    said only the options changed ("p2_draw_count=3"), not what the game's counts are."""
    db = tmp_path / "tables.db"
    games: list[tuple[str, int, dict[str, Any]]] = [
        ("classic", 4, {}), ("classic", 2, {"p2_draw_count": 3}), ("may_i", 3, {}),
        ("bolivia", 4, {"bolivia.going_out": "hoyle"})]
    with running() as rules, hosting(db, rules.grpc_target) as host:
        links = _seat_0_links(host, db, games)
        result, ran = _in_browser("host_seat.mjs", *links, "--older", links[0])
    assert result["problems"] == [] and ran.returncode == 0, result
    wilds = "A meld of one rank holds at least two natural cards and at most 3 wild cards " \
        "(jokers and deuces)."
    assert [page["rules"] for page in result["pages"]] == [
        "Draw the top card from the stock. To go out, your side needs a canasta (a meld of "
        f"seven cards or more). {wilds}",
        "Draw 3 cards from the stock. To go out, your side needs 2 canastas (melds of seven "
        f"cards or more). {wilds}",
        "Draw the top card from the stock.",
        # BO-C1: the view's out_needs_sequence (it said only "needs 2 canastas")
        "Draw 2 cards from the stock. To go out, your side needs 2 canastas (melds of seven "
        "cards or more), one of them an escalera (a sequence of seven in a suit). A meld of "
        "one rank holds at least two natural cards and at most 2 wild cards (jokers and "
        "deuces).", ""], result["pages"]


def test_a_move_clicked_while_the_seat_page_is_disconnected_says_so(tmp_path: Path) -> None:
    """While the seat's socket is down (closed 1011: the page joins again 2 s later) its
    moves are still shown; a click on one went to the closed socket, lost without a word
    (the browser only logs it), and on a socket still connecting it threw. The page now
    says the move was not sent, sends nothing, and plays on once it has joined again (a
    move clicked then is sent and applied: the status line's move number goes on); its
    "Not sent" is gone once the socket is open again (it stayed on screen, under the
    status line saying it was the seat's move, as if the next click would fail too)."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        created = host.create("classic", 2, {1: "greedy"})
        deadline = time.monotonic() + 30
        while host.status(created["game_id"])["awaited"] != 0:  # the bot's turn first
            assert time.monotonic() < deadline, "seat 0's move never came"
            time.sleep(0.1)
        result, ran = _in_browser("host_offline.mjs", _link(
            host.base, stored(db, created["game_id"]), 0))
    assert result["problems"] == [] and ran.returncode == 0, result
    assert result["error"].startswith("Not sent: "), result
    assert result["sent"] == [], result
    assert result["status"].startswith("Hand 1, move "), result
    assert result["after"] == "", result
    played = result["played"]
    assert len(played["sent"]) == 1, result
    assert _move_no(played["status"]) > _move_no(result["status"]), result


def _move_no(status: str) -> int:
    """The move number of a seat page's status line ("Hand 1, move 3: your move (...)")."""
    return int(re.findall(r"^Hand \d+, move (\d+):", status)[0])


def test_a_record_the_seat_page_cannot_download_says_why(tmp_path: Path) -> None:
    """"Download my record" refused by the host (502 UNAVAILABLE: the rules service away)
    says the host's reason and message, as the index page does (it said only "(502)"), the
    reason once (it said "... (UNAVAILABLE) (UNAVAILABLE)", the host's message naming it
    too); with no answer at all (the connection failed) it says the host cannot be reached
    (it said nothing: the failed fetch was an unhandled rejection)."""
    db = tmp_path / "tables.db"
    away = message_of(UnavailableError(grpc.StatusCode.UNAVAILABLE, "Connection refused"))
    with running() as rules, hosting(db, rules.grpc_target) as host:
        [link] = _seat_0_links(host, db, [("classic", 2, {})])
        result, ran = _in_browser("host_record.mjs", link, away)
    assert result["problems"] == [] and ran.returncode == 0, result
    assert result["refused"] == ("The record could not be exported: the rules service refused"
                                 " the call (UNAVAILABLE)"), result
    assert result["failed"].startswith("The record could not be exported: the host cannot be"
                                       " reached"), result


def test_a_host_that_never_answers_is_given_up_at_the_calls_deadline(tmp_path: Path) -> None:
    """A host that takes a call and never answers it: the pages waited for ever (the seat
    page said "Connecting…", "Download my record" nothing, the index page offered no game and
    said nothing). Each call has a deadline (10 s, as the web table's and the SDKs'; here
    1.5 s, ?timeout=1500): a join with no state by then is given up and joined again, as a
    closed socket is; the record and the list of games say the host did not answer in time,
    and pressed again (the index page loaded again, as it says to) they work."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        [link] = _seat_0_links(host, db, [("classic", 2, {})])
        result, ran = _in_browser("host_timeout.mjs", link, host.base)
    assert result["problems"] == [] and ran.returncode == 0, result
    join = result["join"]
    assert join["statuses"][:2] == ["Connecting…", "Disconnected; reconnecting…"], join
    assert join["sockets"] == 2, join
    assert result["record"] == {"late": "The record could not be exported: the host did not answer in time",
                                "again": ""}, result
    index = result["index"]
    assert index["late"] == "the host did not answer in time Reload the page to try again.", index
    assert not index["submit"], index
    assert index["again"]["error"] == "" and index["again"]["games"] > 1, index


def test_the_seat_page_says_who_won_the_game(tmp_path: Path) -> None:
    """A game over names its winner, the view's winner, as the web table does: the side
    (its seats) or "you" for the seat's own side, and a draw when no side won (winner -1,
    a tie: SV-GAME-1, MI-GAME-2). The page said only "The game is over" above the totals,
    which left a May I? player (the lowest total wins) to work it out."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        done = host.create("classic", 2, {0: "greedy", 1: "greedy"}, {"target_score": 1})
        deadline = time.monotonic() + 60
        while not host.status(done["game_id"])["game_over"]:
            assert time.monotonic() < deadline, "the bots did not finish their game"
            time.sleep(0.1)
        table = stored(db, done["game_id"])
        winner = int(re.findall(r"^winner: (\d)$", check_record(host.client, table), re.M)[0])
        links = [_link(host.base, table, seat) for seat in (0, 1)]
        result, ran = _in_browser("host_seat.mjs", *links, "--draw", links[0])
    assert result["problems"] == [] and ran.returncode == 0, result
    mine, theirs, drawn = result["pages"]
    if winner == 1:
        mine, theirs = theirs, mine
    assert mine["over"] == "The game is over: you win.", mine
    assert theirs["over"] == f"The game is over: side {winner} (seat {winner}) wins.", theirs
    assert drawn["over"] == "The game is over: a draw.", drawn


def test_the_index_page_offers_the_games_rule_options(tmp_path: Path) -> None:
    """The index page offers the chosen game's rule options as ListVariants lists them, at
    their defaults (by player count where the game says: classic's target_score, 5000 for
    four, 10000 for six), with what each does, its rule and range, every one at every
    player count: a rule's section does not bound where its option acts (CL-P6-9's
    black_three_meld_max limits going out at four players too, and the page offered it at
    six alone). A table is dealt with the options changed, and its seat page says them and
    what they make of the game (played to 1500, May I?'s seven deals of classic7). A value
    the service refuses is its refusal, reason and message, on the page. The page had no
    options: a classic game from it was always played to 5000, May I? always to its five
    deals. An integer's field asks a phone for digits, but May I?'s max_buys_per_deal, which
    the listing says takes none and unlimited too (its choices), a text keyboard, and its
    line names them: on the digit keyboard "none" could not be typed."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        listed = {v.id: [o.name for o in v.options] for v in host.client.list_variants().variants}
        result, ran = _in_browser(
            "host_options.mjs", host.base, "classic:4", "--",
            "classic:6", "p6_mode=rotation", "target_score=1500", "penalties=true", "--",
            "may_i:3", "schedule=classic7", "--",
            "classic:4", "target_score=0", "--", "classic:4", "target_score=abc", timeout=180)
    assert result["problems"] == [] and ran.returncode == 0, result
    four, six, mayi, zero, text = result["cases"]
    assert list(four["offered"]) == listed["classic"], four
    assert list(six["offered"]) == listed["classic"], six
    assert list(mayi["offered"]) == listed["may_i"], mayi
    assert four["offered"]["target_score"]["placeholder"] == "5000", four
    assert six["offered"]["target_score"]["placeholder"] == "10000", six
    assert four["offered"]["target_score"]["doc"] == (
        "score that ends the game (default by player count) (CL-GAME-1; default 5000;"
        " 1 to 1000000)"), four
    assert six["offered"]["p6_mode"]["value"] == "three_packs", six
    assert mayi["offered"]["schedule"]["value"] == "zioncheck5", mayi
    assert four["offered"]["target_score"]["inputMode"] == "numeric", four
    buys = mayi["offered"]["max_buys_per_deal"]
    assert buys["inputMode"] == "text", mayi
    assert buys["doc"].endswith("; default 3; 0 to 1000000 or none, unlimited)"), mayi
    assert mayi["offered"]["buy_penalty_cards"]["inputMode"] == "numeric", mayi
    assert four["seat"] == {"options": "Rule options: the game's defaults.",
                            "target": "The game is played to 5000."}, four
    assert six["refused"] == "" and six["seat"] == {
        "options": "Rule options: p6_mode=rotation, penalties=true, target_score=1500.",
        "target": "The game is played to 1500."}, six
    assert mayi["refused"] == "" and mayi["seat"] == {
        "options": "Rule options: schedule=classic7.", "target": "Deal 1 of 7."}, mayi
    assert zero["refused"].startswith("BAD_OPTION_VALUE: option target_score "), zero
    assert text["refused"] == ("BAD_OPTION_VALUE: option target_score needs a whole number"
                               " written as digits, not 'abc'"), text


def _imported(db: Path, client: CanastaClient, position: str, bots: dict[int, str]) -> Table:
    """A table stored at an imported position (the service's ImportPosition), as the host
    would hold it had it been played there (a hand or the game over too)."""
    got = client.import_position(position)
    phase = got.views[0].phase if got.views else ""
    table = Table(game_id=str(uuid.uuid4()), variant=got.header.variant,
                  players=len(got.seat_tokens), seq=0, snapshot=got.snapshot,
                  host_token=got.host_token, seat_tokens=tuple(got.seat_tokens), bots=bots,
                  awaited=got.views[0].awaited if got.views else 0,
                  hand_over=phase in ("hand_over", "game_over"), game_over=phase == "game_over")
    store = SqliteStore(db)
    try:
        asyncio.run(store.create(table))
    finally:
        store.close()
    return table


def test_the_seat_page_tells_the_cutthroat_partners(tmp_path: Path) -> None:
    """Classic cutthroat for three (CL-P3-2): once a seat has taken the pile it plays alone
    and the two others are partners, melding together on the lower seat's side (the view's
    lone_hand and meld_side, as the web table reads them). The seat page says who plays
    alone and who partners whom, and the other partner's side, whose melds lie on the pair's,
    no longer reads "needs 50 to open" once the pair has opened (its own `opened` stays
    false: the pair's is the lower seat's side's). Before anyone takes the pile, every seat
    plays for itself and none is said a partner."""
    db = tmp_path / "tables.db"
    with running() as rules, CanastaClient(rules.grpc_target) as client:
        tables = [_imported(db, client, CUTTHROAT[case], {1: "greedy", 2: "greedy"})
                  for case in ("before", "partner", "lone")]
        with hosting(db, rules.grpc_target) as host:
            result, ran = _in_browser("host_seat.mjs", *(_link(host.base, t, 0) for t in tables))
    assert result["problems"] == [] and ran.returncode == 0, result
    before, partner, lone = result["pages"]
    assert not any("partner" in line or "alone" in line for line in before["seats"]), before
    assert not any("partners" in side for side in before["sides"]), before
    assert partner["seats"] == ["you: 13 cards, partner of seat 2 ← to move",
                                "seat 1 (bot: greedy): 13 cards, plays alone",
                                "seat 2 (bot: greedy): 13 cards, your partner, dealer"], partner
    assert partner["sides"] == [
        "Side 0 (seat 0): match score 0, partners with seat 2 this hand",
        "Side 1 (seat 1): match score 0",
        "Side 2 (seat 2): match score 0, partners with seat 0 this hand: their melds are "
        "side 0's"], partner
    assert lone["seats"] == ["you: 13 cards, plays alone ← to move",
                             "seat 1 (bot: greedy): 13 cards, partner of seat 2",
                             "seat 2 (bot: greedy): 13 cards, partner of seat 1, dealer"], lone
    assert lone["sides"][2] == ("Side 2 (seat 2): match score 0, partners with seat 1 this "
                                "hand: their melds are side 1's"), lone


def test_the_seat_page_names_each_canasta_as_its_game_does(tmp_path: Path) -> None:
    """A samba and an escalera were "(natural canasta)" on the seat page and a bolivia
    "(mixed canasta)": it read the view's canasta, natural or mixed only. It reads
    canasta_kind (SA-SEQ-5, BO-SEQ-2, BO-WILD-2) in the web table's words; a meld that is no
    canasta has no name (the service's cases of each game's canastas)."""
    db = tmp_path / "tables.db"
    with running() as rules, CanastaClient(rules.grpc_target) as client:
        tables = [_imported(db, client, kinds_position(variant, melds), {})
                  for variant, melds, _ in KINDS]
        with hosting(db, rules.grpc_target) as host:
            result, ran = _in_browser("host_seat.mjs", *(_link(host.base, t, 0) for t in tables))
    assert result["problems"] == [] and ran.returncode == 0, result
    words = {"natural": "natural canasta", "mixed": "mixed canasta", "": None}
    for (variant, _, kinds), page in zip(KINDS, result["pages"], strict=True):
        shown = dict(re.fullmatch(r"(.+?): [^(]*?(?: \((.+)\))?", meld).groups()  # type: ignore[union-attr]
                     for meld in page["melds"])
        assert shown == {label: words.get(kind, kind) for label, kind in kinds.items()}, variant


def test_the_seat_page_says_each_sides_minimum_for_the_next_hand(tmp_path: Path) -> None:
    """At a hand's end (classic, the stock run out from 1600 and 10: new totals 1150 and -205)
    the seat page said the finished hand's minimum, "needs 90 to open" beside 1150, which
    needs 50 next hand (CL-MIN-1). It says the next hand's now, the view's next_minimum, in
    the web table's words; at the game's end none."""
    db = tmp_path / "tables.db"
    with running() as rules, CanastaClient(rules.grpc_target) as client:
        tables = [_imported(db, client, _hand_over("classic", 4, {}, scores, phase), {})
                  for scores, phase in (((1600, 10), Phase.HAND_OVER),
                                        ((6000, 10), Phase.GAME_OVER))]
        with hosting(db, rules.grpc_target) as host:
            result, ran = _in_browser("host_seat.mjs", *(_link(host.base, t, 0) for t in tables))
    assert result["problems"] == [] and ran.returncode == 0, result
    over, game_over = result["pages"]
    assert over["sides"] == ["Side 0 (seats 0, 2): match score 1150, next hand: 50 to open",
                             "Side 1 (seats 1, 3): match score -205, next hand: 15 to open"], over
    assert not any("open" in side for side in game_over["sides"]), game_over


def test_the_seat_page_connects_to_its_own_origin_alone(tmp_path: Path) -> None:
    """The seat page's policy allows its own origin's WebSocket alone (``connect-src
    'self'``; it was ``'self' ws: wss:``, any host's): in Chromium the page still joins over
    its socket, unrouted, and a move clicked is played; a socket a script on the page opens
    to another origin (the same host named ``localhost``) is refused by the policy, where it
    opened (tests/host/test_pages.py checks the header)."""
    db = tmp_path / "tables.db"
    with running() as rules, hosting(db, rules.grpc_target) as host:
        [link] = _seat_0_links(host, db, [("classic", 2, {})])
        result, ran = _in_browser("host_connect.mjs", link)
    assert result["problems"] == [] and ran.returncode == 0, result
    assert _move_no(result["after"]) > _move_no(result["before"]), result
    assert result["other"] == {"blocked": "connect-src"}, result
