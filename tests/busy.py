"""A client that a busy service refuses at first: its first ``refusals`` SuggestMove calls
raise the SDK's ResourceExhaustedError with the RetryInfo delay ``retry_after``, as the
SDK reads the service's TOO_MANY_CALLS; every other call goes to the real client. For the
tests of what each client does on a refusal of load (the host's bots, the terminal)."""

from __future__ import annotations

from typing import Any

import grpc
from canasta_client import ResourceExhaustedError


class BusyAtFirst:
    def __init__(self, inner: Any, refusals: int, retry_after: float | None) -> None:
        self.inner, self.refusals, self.retry_after = inner, refusals, retry_after
        self.suggested = 0  # SuggestMove calls, the refused ones included

    @property
    def refused(self) -> int:
        return min(self.suggested, self.refusals)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)
        if name != "suggest_move":
            return method

        def call(*args: Any, **kwargs: Any) -> Any:
            self.suggested += 1
            if self.suggested <= self.refusals:
                raise ResourceExhaustedError(grpc.StatusCode.RESOURCE_EXHAUSTED, "busy",
                                             "TOO_MANY_CALLS", "canasta.v1", {"limit": "64"},
                                             retry_after=self.retry_after)
            return method(*args, **kwargs)

        return call
