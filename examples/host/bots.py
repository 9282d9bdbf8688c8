"""The bots: one task per table while a bot is awaited, each move a ``SuggestMove`` applied
through :meth:`Tables.bot_move` (so through the same compare-and-set as a player's). At a
table of bots alone the same task deals each next hand (:meth:`Tables.deal_next`) until the
game is over: no person sits there to deal it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from canasta_client import CanastaError, DeadlineExceededError, UnavailableError

from .store import Table
from .tables import Refused, Tables, reason_of

log = logging.getLogger("canasta.host.bots")


def transient(err: CanastaError) -> bool:
    """Whether waiting may lift ``err``: the service away or slower than the client's
    timeout (every call is pure, so sending it again is safe), or a refusal for load that
    says when to come back (RetryInfo)."""
    return isinstance(err, UnavailableError | DeadlineExceededError) or err.retry_after is not None


Step = Callable[[Table], Awaitable[Table]]


class Bots:
    """Plays the bots' seats. :meth:`wake` after every change and when a seat joins; a
    table's task runs while its awaited seat is a bot and stops at the end of the hand (a
    player deals the next; at a table of bots alone the task deals it, and stops at the end
    of the game), or on a refusal no wait lifts (the next wake tries again). The service
    away or busy, or the store failing, is waited out."""

    def __init__(self, tables: Tables, retry_seconds: float = 0.5,
                 max_retry_seconds: float = 10.0) -> None:
        self.tables = tables
        self.retry_seconds = retry_seconds  # the first wait; each next one twice as long
        self.max_retry_seconds = max_retry_seconds
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()

    def wake(self, game_id: str) -> None:
        """Look at the table again (start its task if none runs). A running task sees the
        mark before it stops: no await lies between its last look and its end."""
        self._dirty.add(game_id)
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    def _step(self, table: Table) -> tuple[str, Step] | None:
        """What the host does at ``table`` now, named for the log: the awaited bot's move;
        once a hand is over at a table of bots alone, the next deal; else nothing (a
        person's turn, a person deals the next hand, the game is over)."""
        if table.game_over:
            return None
        if table.hand_over:
            return ("next deal", self.tables.deal_next) if table.bots_only else None
        return ("bot move", self.tables.bot_move) if table.awaited in table.bots else None

    async def _run(self, game_id: str) -> None:
        backoff = self.retry_seconds
        try:
            while game_id in self._dirty:
                self._dirty.discard(game_id)
                doing = ""
                try:
                    table = await self.tables.store.load(game_id)
                    step = None if table is None else self._step(table)
                    if table is None or step is None:
                        continue
                    self._dirty.add(game_id)  # the host acts: look again after it
                    doing, act = step
                    await act(table)
                    backoff = self.retry_seconds
                except Refused:
                    pass  # another move landed first: reload and go on
                except CanastaError as err:
                    if not transient(err):
                        log.error("%s refused on table %s: %s %s", doing, game_id,
                                  err.reason, err.message)
                        self._dirty.discard(game_id)
                        continue
                    # the service's own delay if it named one, else ours, doubled to a cap
                    wait = err.retry_after or backoff
                    backoff = min(backoff * 2, self.max_retry_seconds)
                    log.warning("rules service %s; table %s retries in %.1f s",
                                reason_of(err), game_id, wait)
                    await asyncio.sleep(wait)
                except Exception:
                    # the store failed (a database away): wait and look again, as for the
                    # service away; stopping would leave a table of bots alone, which no
                    # seat wakes, stuck until a restart (the traceback once per streak)
                    self._dirty.add(game_id)
                    log.error("the store failed on table %s; it retries in %.1f s", game_id,
                              backoff, exc_info=backoff == self.retry_seconds)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, self.max_retry_seconds)
        finally:
            del self._tasks[game_id]

    async def idle(self) -> None:
        """Wait until no bot task runs (the tests wait on it; shutdown cancels: :meth:`stop`)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel every task (shutdown: the store has every committed move)."""
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
