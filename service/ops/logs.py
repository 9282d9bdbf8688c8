"""JSON logs, one object per line, each with the request id of the call being served.

The request id comes from the caller (``x-request-id`` header or metadata)
or is made up; it is echoed back and appears in every log line of the call.
Logs never contain snapshots, positions or keys.
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
import time
import uuid
from typing import Any

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")
ACCESS = logging.getLogger("canasta.access")
_MAX_ID = 128


def request_id(given: str | None) -> str:
    """The caller's request id if it is sane, else a fresh one."""
    if given and len(given) <= _MAX_ID and given.isprintable():
        return given
    return uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", "request_id", ...extra fields}``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = REQUEST_ID.get()
        if rid:
            out["request_id"] = rid
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def setup(level: str = "INFO") -> None:
    """Send every logger (uvicorn's too) through one JSON handler on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True


def access(transport: str, method: str, code: str, seconds: float, peer: str = "") -> None:
    """One line per call."""
    if ACCESS.isEnabledFor(logging.INFO):
        ACCESS.info("%s %s %s", transport, method, code, extra={"fields": {
            "transport": transport, "method": method, "code": code,
            "duration_ms": round(seconds * 1000, 3), "peer": peer}})
