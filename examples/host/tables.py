"""The host's game logic: deal a table, play a seat's move or a bot's, deal the next hand,
export a record. Every state change is one call to the rules service with the *stored*
snapshot, then a compare-and-set of the answer on ``(game_id, seq)`` (docs/security.md),
then the record line docs/records.md asks for."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from functools import cached_property

from canasta_client import AsyncCanastaClient, CanastaError, SeatView

from .store import Store, Table

LEVELS = ("random", "greedy", "expert")
# A seat's undos in one hand past which the host takes no more of its meld actions (the
# verbs ``undo`` takes back) until the next hand: each meld and undo adds a record line, and
# a record past 64 KiB can no longer be exported (no ExportRecord request holds it).
MAX_UNDOS = 30
STAGING = frozenset({"meld", "add", "merge"})

Changed = Callable[[Table], Awaitable[None]]


class Refused(Exception):
    """A request the host turns down before or instead of the service: ``reason`` is a
    stable code (``SNAPSHOT_STALE``, ``NOT_FOUND``, ``SEAT_NOT_ALLOWED``, ...)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def staging_refused(record: str, seat: int) -> bool:
    """Whether the host refuses ``seat``'s meld actions: past :data:`MAX_UNDOS` undos in the
    hand being played (its record lines since the last ``hand N``), unless its partner has
    just said "yes" to its "may I go out?" (the last question of the hand is the seat's, and
    the next line answers it): then it must go out, melding what it holds, and a refusal
    would leave it no move."""
    lines = record[record.rfind("\nhand "):].split("\n")
    if lines.count(f"{seat} undo") < MAX_UNDOS:
        return False
    asks = [i for i, line in enumerate(lines) if line.endswith(" ask")]
    if not asks or lines[asks[-1]] != f"{seat} ask":
        return True
    answer = lines[asks[-1] + 1] if asks[-1] + 1 < len(lines) else ""
    return not answer.endswith(" yes")


def reason_of(err: CanastaError) -> str:
    """The service's reason, or its status code's name when it sent none (the service
    away, a message over gRPC's size limit): a refusal always has a reason."""
    return err.reason or err.code.name


def message_of(err: CanastaError) -> str:
    """The message to pass on: the service's own with its reason (written for the caller),
    else one of the host's. A refusal without a reason is gRPC's, whose text names the
    rules service's address ("ipv4:10.0.0.7:50051: Connection refused"), which is no
    player's business; the caller logs it. Its code is the refusal's reason
    (:func:`reason_of`), which every page shows beside the message: not named twice."""
    if err.reason:
        return err.message
    return "the rules service refused the call"


class Tables:
    """Tables over a :class:`Store` and one asyncio client of the rules service, which
    ``connect`` makes at its first use: a ``grpc.aio`` channel works only on the event loop
    it was made on, so it is made on the loop that serves the tables. ``changed`` is
    awaited after every commit (the app pushes views and wakes the bots there)."""

    def __init__(self, store: Store, connect: Callable[[], AsyncCanastaClient],
                 changed: Changed | None = None) -> None:
        self.store = store
        self.connect = connect
        self.changed = changed

    @cached_property
    def client(self) -> AsyncCanastaClient:
        return self.connect()

    async def close(self) -> None:
        """Close the client, if it was made."""
        if "client" in self.__dict__:
            await self.client.close()

    async def _changed(self, table: Table) -> None:
        if self.changed is not None:
            await self.changed(table)

    async def get(self, game_id: str) -> Table:
        table = await self.store.load(game_id)
        if table is None:
            raise Refused("NOT_FOUND", f"no table {game_id!r}")
        return table

    async def create(self, variant: str, players: int, bots: Mapping[int, str],
                     options: Mapping[str, str] | None = None) -> Table:
        """Deal a new table with a secret random seed; ``bots`` maps seats to levels."""
        if any(level not in LEVELS for level in bots.values()):
            raise Refused("BAD_LEVEL", f"a bot level is one of {', '.join(LEVELS)}")
        if any(not 0 <= s < players for s in bots):
            raise Refused("BAD_SEAT", "a bot's seat is not at this table")
        deal = await self.client.deal(variant, players, seed=secrets.randbits(63),
                                      options=options, view_seat=-1)
        record = await self.client.export_record(deal.snapshot, "", token=deal.host_token)
        table = Table(deal.header.game_id, variant, players, deal.header.seq, deal.snapshot,
                      deal.host_token, tuple(deal.seat_tokens), dict(bots), record.record,
                      awaited=deal.views[0].awaited)
        await self.store.create(table)
        await self._changed(table)
        return table

    @staticmethod
    def is_seat(table: Table, seat: int, token: str) -> bool:
        """Whether ``token`` opens ``seat``: its stored seat token, or the one a key
        rotation replaced, which older join links carry (compared in constant time). The
        host calls the service with the stored one alone."""
        if not 0 <= seat < table.players:
            return False
        known = (table.seat_tokens[seat], *table.previous_tokens[seat:seat + 1])
        return any(hmac.compare_digest(token.encode(), t.encode()) for t in known)

    async def _seat_table(self, game_id: str, seat: int, token: str, seq: int) -> Table:
        table = await self.get(game_id)
        if not self.is_seat(table, seat, token):
            raise Refused("SEAT_NOT_ALLOWED", "that is not this seat's token")
        if seq != table.seq:
            raise Refused("SNAPSHOT_STALE", f"the table is at move {table.seq}, not {seq}")
        return table

    async def _commit(self, old: Table, new: Table) -> Table:
        """The compare-and-set: ``new`` lands only if ``old`` is still the stored row."""
        if not await self.store.commit(new, old.seq):
            raise Refused("SNAPSHOT_STALE", "another move landed first")
        await self._changed(new)
        return new

    async def _apply(self, table: Table, move: str, seat: int, token: str) -> Table:
        done = await self.client.apply_move(
            table.snapshot, move, seat=seat, expected_seq=table.seq,
            expected_game_id=table.game_id,
            view_seat=-1 if token == table.host_token else seat, token=token)
        new = replace(table, seq=done.header.seq, snapshot=done.snapshot,
                      record=f"{table.record}{done.seat} {done.move.text}\n",
                      awaited=done.awaited, hand_over=done.hand_over,
                      game_over=done.game_over)
        return await self._commit(table, new)

    async def move(self, game_id: str, seat: int, token: str, move: str, seq: int) -> Table:
        """A player's move, sent with that player's seat token (the service checks the
        seat); ``seq`` is the move the player saw, refused unless it is the latest. Past
        :data:`MAX_UNDOS` undos in a hand its meld actions are refused (:func:`staging_refused`;
        ``undo`` never is, so staged melds short of a minimum never leave the seat stuck)."""
        table = await self._seat_table(game_id, seat, token, seq)
        verb = move.split(None, 1)[:1]  # as the engine reads it: any case, spaces around
        if verb and verb[0].lower() in STAGING and staging_refused(table.record, seat):
            raise Refused("UNDO_LIMIT", f"{MAX_UNDOS} undos this hand: this host takes no more"
                          " melds from this seat until the next hand")
        return await self._apply(table, move, seat, table.seat_tokens[seat])

    async def bot_move(self, table: Table) -> Table:
        """The awaited bot's move: ``SuggestMove`` at its level, applied as its seat."""
        seat = table.awaited
        hint = await self.client.suggest_move(table.snapshot, table.bots[seat],
                                              seed=table.seq, seat=seat,
                                              token=table.host_token)
        return await self._apply(table, hint.move.text, seat, table.host_token)

    async def next_deal(self, game_id: str, seat: int, token: str, seq: int) -> Table:
        """Deal the next hand once one is over (any seated player may ask; at a table of
        bots alone the host asks itself, :meth:`deal_next`)."""
        table = await self._seat_table(game_id, seat, token, seq)
        return await self.deal_next(table)

    async def deal_next(self, table: Table) -> Table:
        """Deal the next hand of ``table`` as stored, with the host token. The answer's
        credentials are stored in the same compare-and-set: after a key rotation they are
        the only ones that outlive the old key."""
        # mid-hand or after the game the service refuses it (HAND_NOT_OVER, GAME_OVER)
        dealt = await self.client.next_deal(table.snapshot, expected_seq=table.seq,
                                            expected_game_id=table.game_id, view_seat=-1,
                                            token=table.host_token)
        view = dealt.views[0]
        # signed with the key that seals now: new ones after a rotation, and the replaced
        # ones are kept for the join links that carry them
        tokens = tuple(dealt.seat_tokens)
        previous = table.previous_tokens if tokens == table.seat_tokens else table.seat_tokens
        new = replace(table, seq=dealt.header.seq, snapshot=dealt.snapshot,
                      record=f"{table.record}hand {view.hand_no}\n", awaited=view.awaited,
                      hand_over=False, game_over=False, host_token=dealt.host_token,
                      seat_tokens=tokens, previous_tokens=previous)
        return await self._commit(table, new)

    async def view(self, table: Table, seat: int) -> SeatView:
        """``seat``'s own view, asked with its own token: the service builds it for that
        seat alone (its hand, the public table; never another hand or the stock)."""
        answer = await self.client.view(table.snapshot, token=table.seat_tokens[seat])
        return answer.views[0]

    async def seat_record(self, game_id: str, seat: int, token: str) -> str:
        """The seat's own record (other hands hidden until a hand is over, never the stock
        or the seed), exported with its token."""
        table = await self.get(game_id)
        if not self.is_seat(table, seat, token):
            raise Refused("SEAT_NOT_ALLOWED", "that is not this seat's token")
        answer = await self.client.export_record(table.snapshot, table.record,
                                                 token=table.seat_tokens[seat])
        return answer.record
