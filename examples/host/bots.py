"""The bots: one task per table while a bot is awaited, each move a ``SuggestMove`` applied
through :meth:`Tables.bot_move` (so through the same compare-and-set as a player's)."""

from __future__ import annotations

import asyncio
import logging

from canasta_client import CanastaError, UnavailableError

from .tables import Refused, Tables

log = logging.getLogger("canasta.host.bots")


class Bots:
    """Plays the bots' seats. :meth:`wake` after every change; a table's task runs while
    its awaited seat is a bot and stops at the end of the hand (a player deals the next)."""

    def __init__(self, tables: Tables, retry_seconds: float = 1.0) -> None:
        self.tables = tables
        self.retry_seconds = retry_seconds
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()

    def wake(self, game_id: str) -> None:
        """Look at the table again (start its task if none runs). A running task sees the
        mark before it stops: no await lies between its last look and its end."""
        self._dirty.add(game_id)
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    async def _run(self, game_id: str) -> None:
        try:
            while game_id in self._dirty:
                self._dirty.discard(game_id)
                table = await self.tables.store.load(game_id)
                if (table is None or table.hand_over or table.game_over
                        or table.awaited not in table.bots):
                    continue
                self._dirty.add(game_id)  # a bot is awaited: look again after its move
                try:
                    await self.tables.bot_move(table)
                except Refused:
                    pass  # another move landed first: reload and go on
                except CanastaError as err:
                    # away, or busy: a refusal of load says when to come back (RetryInfo)
                    if isinstance(err, UnavailableError) or err.retry_after is not None:
                        wait = err.retry_after or self.retry_seconds
                        log.warning("rules service %s; table %s retries in %.1f s",
                                    err.reason or err.code.name, game_id, wait)
                        await asyncio.sleep(wait)
                        continue
                    log.error("bot move refused on table %s: %s %s", game_id, err.reason,
                              err.message)
                    self._dirty.discard(game_id)
        finally:
            del self._tasks[game_id]

    async def idle(self) -> None:
        """Wait until no bot task runs (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel every task (shutdown: the store has every committed move)."""
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
