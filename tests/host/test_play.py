"""The reference host (examples/host) with real sockets: players over WebSocket, bots
through SuggestMove, every move committed with a compare-and-set on (game_id, seq) in
SQLite, a game record per table (docs/records.md)."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from canasta_client import AsyncCanastaClient, CanastaClient, DeadlineExceededError
from google.protobuf.json_format import MessageToDict
from websockets.exceptions import ConnectionClosed

from engine import records
from engine.notation import export_position
from examples.host.bots import Bots
from examples.host.players import public_log
from examples.host.store import SqliteStore, Table
from examples.host.tables import Refused, Tables
from tests.busy import BusyAtFirst
from tests.host.hosts import Host, Player, check_record, hosting, stored
from tests.service.servers import Running

MOVE_LINE = re.compile(r"^\d+ [a-z]", re.M)
CARD = re.compile(r"^(JK|[2-9TJQKA][SHDC])$")
NOTE = re.compile(r"\{([^}]*)\}")


def as_dict(message: Any) -> dict[str, Any]:
    got: dict[str, Any] = MessageToDict(message, preserving_proto_field_name=True,
                                        always_print_fields_with_no_presence=True)
    return got


def cards_in(value: Any) -> Counter[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, dict):
        return sum((cards_in(v) for v in value.values()), Counter())
    if isinstance(value, list):
        return sum((cards_in(v) for v in value), Counter())
    return Counter([value]) if isinstance(value, str) and CARD.match(value) else Counter()


def check_sent(player: Player, host: Host, db: Path) -> None:
    """The player's latest message, taken while the table waits for that player (nothing
    else can move), against the host's full position of the same seq: its own hand
    exactly, every other card one the public table shows (check_raw: no credential)."""
    msg, seat = player.state, player.seat
    table = stored(db, player.game_id)
    assert msg["seq"] == table.seq
    everyone = host.client.view(table.snapshot, token=table.host_token).views
    assert len(everyone) == table.players
    public = as_dict(host.client.view(table.snapshot, -1, token=table.host_token).views[0])
    view = msg["view"]
    assert view["seat"] == seat and Counter(view["hand"]) == Counter(everyone[seat].hand)
    own = {"seat", "hand", "legal_moves", "legal_moves_total"}  # the seat's alone
    rest = {k: v for k, v in view.items() if k not in own}
    assert rest == {k: v for k, v in public.items() if k in rest}  # the public table, as is
    # every card sent is the seat's own or on the public table: of the cards hidden from
    # it (the other hands, the stock), none more often than its hand and the table show
    others = {k: v for k, v in public.items() if k not in own}
    shown = cards_in(rest) + Counter(view["hand"])
    assert shown == cards_in(others) + Counter(everyone[seat].hand)
    position = host.client.export_position(table.snapshot, token=table.host_token).position
    stock = next(line for line in position.splitlines() if line.startswith("stock:")).split()[1:]
    hidden = Counter(stock) + sum((Counter(v.hand) for v in everyone if v.seat != seat),
                                  Counter())
    assert hidden and all(shown[card] <= Counter(everyone[seat].hand)[card]
                          + cards_in(others)[card] for card in hidden)
    allowed = set(everyone[seat].hand) | set(cards_in(others))
    for move in view["legal_moves"]:
        assert {w for w in move.split() if CARD.match(w)} <= allowed, move
    assert msg["log"] == public_log(table.record)
    # the rule options are the table's public status (GET /api/tables/GAME), as is the rest
    assert msg["options"] == host.status(player.game_id)["options"]
    assert set(msg) == {"type", "game_id", "variant", "players", "seq", "awaited", "hand_over",
                        "game_over", "bots", "options", "seat", "view", "log"}


def check_raw(player: Player, table_tokens: tuple[str, ...], host_token: str) -> None:
    """No message a player got holds a credential, a snapshot, the seed or the host's
    record header."""
    assert player.raw
    for raw in player.raw:
        assert host_token not in raw
        assert all(token not in raw for token in table_tokens)
        for word in ("snapshot", "token", "seed", "canasta-record", "{dealt"):
            assert word not in raw, word


def play_out(players: list[Player], host: Host, db: Path, game_id: str,
             check: bool = False, stop_after: int = 10_000) -> int:
    """Each player plays its first listed move whenever it is awaited, until the hand is
    over (or ``stop_after`` moves); the number of moves the players made."""
    made = 0
    while made < stop_after:
        for p in players:
            p.drain(0.05)
        status = host.status(game_id)
        if status["hand_over"]:
            break
        for p in players:
            if p.my_turn() and p.state["seq"] == status["seq"]:
                if check:
                    check_sent(p, host, db)
                p.play(p.pick())
                made += 1
                p.wait(lambda s, seq=p.state["seq"]: s["seq"] > seq)
                break
        assert made < 2000
    return made


def test_two_players_and_two_bots_finish_a_hand(rules: Running, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        created = host.create("classic", 4, {1: "greedy", 3: "random"})
        links = [s["link"] for s in created["seats"]]
        assert links[1] is None and links[3] is None and links[0] and links[2]
        players = [Player(host, links[0]), Player(host, links[2])]
        for p in players:
            p.wait(lambda s: s["type"] == "state")
            assert p.state["view"]["seat"] == p.seat
        made = play_out(players, host, db, created["game_id"])
        assert made > 5
        table = stored(db, created["game_id"])
        assert table.hand_over and table.seq > made
        assert len(MOVE_LINE.findall(table.record)) == table.seq  # every move in the record
        check_record(host.client, table)
        for p in players:
            final = p.wait(lambda s: s["hand_over"])
            assert final["seq"] == table.seq and final["view"]["result"]
            p.close()


@pytest.mark.parametrize(("retry_after", "finishes"), [(0.05, True), (None, False)])
def test_a_bot_refused_for_load_plays_again(rules: Running, tmp_path: Path,
                                            retry_after: float | None, finishes: bool) -> None:
    """Two bots whose first two SuggestMove calls are refused for load: they wait the
    RetryInfo's delay and finish the game (of 1 point: a hand, or a few the host deals).
    A RESOURCE_EXHAUSTED without RetryInfo (a limit that no wait lifts) stops the table's
    bot after one call, as any other refusal."""
    async def run() -> tuple[Table, int]:
        store = SqliteStore(tmp_path / "tables.db")
        client = BusyAtFirst(AsyncCanastaClient(rules.grpc_target), 2, retry_after)
        tables = Tables(store, lambda: client)  # type: ignore[arg-type,return-value]
        bots = Bots(tables)
        table = await tables.create("classic", 2, {0: "greedy", 1: "greedy"},
                                    {"target_score": "1"})
        bots.wake(table.game_id)
        await bots.idle()
        final = await tables.get(table.game_id)
        store.close()
        await client.close()
        return final, client.suggested

    final, suggested = asyncio.run(run())
    assert final.hand_over is finishes and final.game_over is finishes
    if finishes:  # each move, and the two refused
        assert final.seq > 10 and suggested == len(MOVE_LINE.findall(final.record)) + 2
    else:
        assert final.seq == 0 and suggested == 1


def test_a_table_of_bots_plays_to_the_end_of_the_game(rules: Running, tmp_path: Path) -> None:
    """No person sits at a table of bots alone to deal its next hand: the host deals each
    one itself until the game is over (a table with a person waits for one to deal it,
    test_a_restart_mid_hand_resumes_it). Classic for two ends at 5000 points, more than a
    hand scores: the game takes hands 0, 1 and on, and the record replays them exactly."""
    async def run() -> Table:
        store = SqliteStore(tmp_path / "tables.db")
        client = AsyncCanastaClient(rules.grpc_target, timeout=20.0)
        tables = Tables(store, lambda: client)
        bots = Bots(tables)
        tables.changed = lambda table: _wake(bots, table)
        table = await tables.create("classic", 2, {0: "greedy", 1: "greedy"})
        await bots.idle()
        final = await tables.get(table.game_id)
        store.close()
        await client.close()
        return final

    final = asyncio.run(run())
    assert final.game_over and final.hand_over, final.record[-200:]
    assert "\nhand 1\n" in final.record  # dealt by the host, no person asked
    with CanastaClient(rules.grpc_target, timeout=20.0) as client:
        replays_exactly(client, final)
        scored = client.score_hand(final.snapshot, token=final.host_token)
    assert max(s.cumulative for s in scored.sides) >= 5000


async def _wake(bots: Bots, table: Table) -> None:
    bots.wake(table.game_id)  # as the app does after every commit


class SlowAtFirst:
    """A client whose first ``slow`` SuggestMove and first ``slow`` ApplyMove calls end as
    the SDK's timeout ends them (the rules service slower than the client waits); every
    other call goes to the real client."""

    def __init__(self, inner: AsyncCanastaClient, slow: int) -> None:
        self.inner, self.slow = inner, slow
        self.timed_out: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if name not in ("suggest_move", "apply_move"):
            return method

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.timed_out[name] < self.slow:
                self.timed_out[name] += 1
                raise DeadlineExceededError(grpc.StatusCode.DEADLINE_EXCEEDED,
                                            "Deadline Exceeded", "DEADLINE_EXCEEDED")
            return await method(*args, **kwargs)

        return call


def test_a_bot_whose_calls_time_out_plays_again(rules: Running, tmp_path: Path) -> None:
    """Two bots whose first two SuggestMove and first two ApplyMove calls time out: a
    timeout is transient (every call is pure), so they wait and finish the game (of 1
    point: a hand, or a few)."""
    async def run() -> tuple[Table, Counter[str]]:
        store = SqliteStore(tmp_path / "tables.db")
        client = SlowAtFirst(AsyncCanastaClient(rules.grpc_target), 2)
        tables = Tables(store, lambda: client)  # type: ignore[arg-type,return-value]
        bots = Bots(tables, retry_seconds=0.01)
        table = await tables.create("classic", 2, {0: "greedy", 1: "greedy"},
                                    {"target_score": "1"})
        bots.wake(table.game_id)
        await bots.idle()
        final = await tables.get(table.game_id)
        store.close()
        await client.inner.close()
        return final, client.timed_out

    final, timed_out = asyncio.run(run())
    assert final.game_over and final.seq > 10
    assert timed_out == {"suggest_move": 2, "apply_move": 2}


def test_a_stopped_bot_plays_again_when_a_seat_joins(rules: Running, tmp_path: Path) -> None:
    """A bot stopped by a refusal that no wait lifts (RESOURCE_EXHAUSTED without RetryInfo)
    plays again when a player joins its table: a stuck table recovers without a restart."""
    made: list[BusyAtFirst] = []

    def connect() -> AsyncCanastaClient:
        made.append(BusyAtFirst(AsyncCanastaClient(rules.grpc_target, timeout=20.0), 1, None))
        return made[-1]  # type: ignore[return-value]

    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target, connect) as host:
        created = host.create("classic", 2, {0: "greedy"})
        game_id, link = created["game_id"], created["seats"][1]["link"]
        player = Player(host, link)
        player.wait(lambda s: s["type"] == "state")
        while player.my_turn():  # the player's turn first: play it, the bot is next
            seq = player.state["seq"]
            player.play(player.pick())
            player.wait(lambda s, seq=seq: s["seq"] > seq)
        stuck = player.state["seq"]
        deadline = time.monotonic() + 20
        while not made or made[0].suggested < 1:  # the bot's first call, refused
            assert time.monotonic() < deadline, "the bot was never asked to move"
            time.sleep(0.01)
        again = Player(host, link)  # the page reloaded, say
        again.wait(lambda s: s["seq"] > stuck, timeout=10)
        assert made[0].suggested > 1 and host.status(game_id)["seq"] > stuck
        player.close()
        again.close()


def test_a_players_messages_hold_only_its_seat(rules: Running, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        created = host.create("classic", 4, {2: "greedy", 3: "greedy"})
        game_id = created["game_id"]
        players = [Player(host, created["seats"][s]["link"]) for s in (0, 1)]
        made = play_out(players, host, db, game_id, check=True)
        assert made > 5
        table = stored(db, game_id)
        for p in players:
            p.wait(lambda s: s["hand_over"])
            check_raw(p, table.seat_tokens, table.host_token)
            p.close()
        # another seat's token, or none, opens no seat
        for token in (table.seat_tokens[1], "-", table.host_token):
            intruder = Player(host, f"/play/{game_id}/0#{token}")
            with pytest.raises(ConnectionClosed):  # closed 4403 before any message
                intruder.drain(5.0)
                intruder.ws.recv(timeout=5.0)
            assert intruder.raw == []
            assert intruder.ws.close_code == 4403


def test_a_stale_move_is_refused_and_nothing_is_lost(rules: Running, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        created = host.create("classic", 2, {})
        game_id = created["game_id"]
        players = [Player(host, s["link"]) for s in created["seats"]]
        for p in players:
            p.wait(lambda s: s["type"] == "state")
        me = next(p for p in players if p.state["awaited"] == p.seat)
        old_seq = me.state["seq"]
        me.play("draw")
        me.wait(lambda s: s["seq"] == old_seq + 1)
        before = stored(db, game_id)
        # the same seat, its move sent for the position it saw before: refused
        me.send(type="move", move=me.pick(), seq=old_seq)
        me.wait(lambda s: bool(me.refusals))
        assert me.refusals[-1]["reason"] == "SNAPSHOT_STALE"
        after = stored(db, game_id)
        assert after == before  # the store unchanged: snapshot, seq, record
        # a move of the other seat is the service's to refuse, with its rule
        other = next(p for p in players if p is not me)
        other.send(type="move", move="draw", seq=after.seq)
        other.wait(lambda s: bool(other.refusals))
        assert other.refusals[-1]["reason"] == "NOT_YOUR_TURN"
        assert stored(db, game_id) == before
        for junk in ("not json", "[]", '{"type": "move", "seq": "x"}', '{"type": "pass", "seq": 1}'):
            refusals = len(me.refusals)
            me.ws.send(junk)
            me.wait(lambda s, n=refusals: len(me.refusals) > n)
            assert me.refusals[-1]["reason"] == "BAD_REQUEST"
        assert stored(db, game_id) == before
        for p in players:
            p.close()

    # two moves racing for one table: the compare-and-set lets exactly one land
    async def race() -> tuple[list[object], str, int]:
        store = SqliteStore(db)
        client = AsyncCanastaClient(rules.grpc_target)
        tables = Tables(store, lambda: client)
        table = await tables.get(game_id)
        seat = table.awaited
        token = table.seat_tokens[seat]
        moves = (await client.legal_moves(table.snapshot, token=token)).moves
        texts = [m.text for m in moves if m.text not in ("undo", "ask")][:2]
        texts = (texts * 2)[:2]
        got = await asyncio.gather(
            *(tables.move(game_id, seat, token, text, table.seq) for text in texts),
            return_exceptions=True)
        # and the store itself refuses a commit for a seq it no longer holds
        latest = await tables.get(game_id)
        assert not await store.commit(table, table.seq)
        assert await tables.get(game_id) == latest
        store.close()
        await client.close()
        return list(got), latest.record, latest.seq

    got, record, seq = asyncio.run(race())
    stale = [g for g in got if isinstance(g, Refused)]
    assert len(stale) == 1 and stale[0].reason == "SNAPSHOT_STALE"
    assert seq == before.seq + 1 and record.count("\n") == before.record.count("\n") + 1


def test_a_restart_mid_hand_resumes_it(rules: Running, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        created = host.create("classic", 4, {1: "greedy", 2: "greedy", 3: "greedy"})
        game_id, link = created["game_id"], created["seats"][0]["link"]
        player = Player(host, link)
        assert play_out([player], host, db, game_id, stop_after=4) == 4
        player.wait(lambda s: s["awaited"] == 0)
        player.play(player.pick())
        player.close()
    # the first host is gone, maybe in the middle of the bots' moves
    before = stored(db, game_id)
    assert not before.hand_over and before.seq >= 5
    with hosting(db, rules.grpc_target) as host:
        player = Player(host, link)
        state = player.wait(lambda s: s["type"] == "state")
        assert state["seq"] >= before.seq and state["view"]["hand"]
        play_out([player], host, db, game_id)
        table = stored(db, game_id)
        assert table.hand_over and len(MOVE_LINE.findall(table.record)) == table.seq
        check_record(host.client, table)
        # the player deals the next hand: "hand 1" in the record, which still replays
        player.wait(lambda s: s["hand_over"])
        player.send(type="next", seq=table.seq)
        state = player.wait(lambda s: s["view"]["hand_no"] == 1)
        assert state["seq"] > table.seq and not state["hand_over"]
        dealt = stored(db, game_id)
        assert "\nhand 1\n" in dealt.record and dealt.record.startswith(table.record)
        replays_exactly(host.client, dealt)
        player.close()


def replays_exactly(client: CanastaClient, table: Table) -> str:
    """The host's record of ``table`` exported and replayed: the replay ends at exactly the
    stored snapshot's position (every hand, the stock's order, the scores). The record."""
    full = client.export_record(table.snapshot, table.record, token=table.host_token).record
    position = client.export_position(table.snapshot, token=table.host_token).position
    assert export_position(records.replay(full)) == position
    return full


def test_a_seats_record_mid_game(rules: Running, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        created = host.create("classic", 4, {1: "greedy", 2: "greedy", 3: "greedy"})
        game_id, link = created["game_id"], created["seats"][0]["link"]
        player = Player(host, link)
        play_out([player], host, db, game_id, stop_after=6)
        player.wait(lambda s: s["awaited"] == 0)  # the table waits: the store is current
        table = stored(db, game_id)
        url = f"{host.base}/api/tables/{game_id}/record"
        mine = httpx.get(url, params={"seat": 0}, timeout=20,
                         headers={"Authorization": f"Bearer {player.token}"})
        assert mine.status_code == 200, mine.text
        for token, seat in ((table.seat_tokens[1], 0), (player.token, 1), ("-", 0)):
            refused = httpx.get(url, params={"seat": seat}, timeout=20,
                                headers={"Authorization": f"Bearer {token}"})
            assert refused.status_code == 403
        full = replays_exactly(host.client, table)  # the host's record, replayed exactly
        position = host.client.export_position(table.snapshot, token=table.host_token)
        # the seat's: the same moves, and of the cards only its own notes of the full record
        seat_lines, full_lines = mine.text.splitlines(), full.splitlines()
        assert "view: 0" in seat_lines and not any(
            line.startswith(("seed:", "deck:", "start:", "| ")) for line in seat_lines)
        assert MOVE_LINE.findall(mine.text) and [
            NOTE.sub("", line).strip() for line in seat_lines if MOVE_LINE.match(line)] == [
            NOTE.sub("", line).strip() for line in full_lines if MOVE_LINE.match(line)]

        def own_notes(lines: list[str]) -> list[str]:
            notes = [n for line in lines for n in NOTE.findall(line)]
            return [n for n in notes if n.startswith(("dealt 0:", "0 drew", "took"))
                    and (not n.startswith("took") or n in seen_takes)]

        seen_takes = {n for line in full_lines if line.startswith("0 ")
                      for n in NOTE.findall(line) if n.startswith("took")}
        seat_notes = [n for line in seat_lines for n in NOTE.findall(line)]
        assert seat_notes and seat_notes == own_notes(full_lines)
        # none of its cards is one of the others' hands or the stock that it never saw
        views = host.client.view(table.snapshot, token=table.host_token).views
        noted = sum((cards_in(n.split()) for n in seat_notes), Counter())
        hidden = sum((Counter(v.hand) for v in views[1:]), Counter())
        stock = next(line for line in position.position.splitlines()
                     if line.startswith("stock:")).split()[1:]
        seen = sum((cards_in(n.split()) for n in own_notes(full_lines)), Counter())
        assert noted == seen and hidden and stock
        player.close()
