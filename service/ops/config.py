"""Service settings, read once from ``CANASTA_*`` environment variables.

Every setting has an embedded default so ``make run`` needs nothing else; a
value that does not parse stops the process with a clear message instead of
being replaced silently. The README's "Configuration" section lists them all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class ExportPolicy(StrEnum):
    """Which snapshots ExportPosition may reveal in full (docs/security.md)."""

    ANY = "any"
    IMPORTED = "imported"
    OFF = "off"


class AccessMode(StrEnum):
    """Whether calls must present a game's credentials (docs/security.md)."""

    TOKENS = "tokens"  # every answer is scoped to the caller's credential
    TRUSTED = "trusted"  # a call without a credential acts as the host (private networks)


class ConfigError(ValueError):
    """A setting has a value that cannot be used."""


@dataclass(frozen=True, slots=True)
class Settings:
    bind: str = "127.0.0.1"
    grpc_port: int = 50051
    http_port: int = 8080
    seal_keys: str = ""
    dev_key_file: str = ""
    max_message_bytes: int = 65536
    max_snapshot_bytes: int = 16384
    max_concurrent_rpcs: int = 256
    grace_seconds: float = 10.0
    max_connection_age_s: int = 0
    log_level: str = "INFO"
    access_log: bool = True
    reflection: bool = True
    state_cache: int = 1024
    export_policy: ExportPolicy = ExportPolicy.ANY
    access: AccessMode = AccessMode.TOKENS
    grpc_threads: int = 4  # the engine's gRPC calls run in this many threads
    # REST (service/rest/limits.py): what one client may make the server hold, and for how long
    http_max_header_bytes: int = 32768
    http_header_timeout_s: float = 10.0
    http_body_timeout_s: float = 30.0
    http_max_connections: int = 1000
    cors_origins: tuple[str, ...] = ()  # () : no CORS headers; ("*",): any origin

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from the environment (``os.environ`` by default).

        :raises ConfigError: a value does not parse or is out of range.
        """
        e = os.environ if env is None else env
        d = cls()
        return cls(
            bind=e.get("CANASTA_BIND", d.bind).strip() or d.bind,
            grpc_port=_int(e, "CANASTA_GRPC_PORT", d.grpc_port, 0, 65535),
            http_port=_int(e, "CANASTA_HTTP_PORT", d.http_port, 0, 65535),
            seal_keys=e.get("CANASTA_SEAL_KEYS", "").strip(),
            dev_key_file=e.get("CANASTA_DEV_KEY_FILE", "").strip(),
            max_message_bytes=_int(e, "CANASTA_MAX_MESSAGE_BYTES", d.max_message_bytes,
                                   1024, 64 << 20),
            max_snapshot_bytes=_int(e, "CANASTA_MAX_SNAPSHOT_BYTES", d.max_snapshot_bytes,
                                    256, 16 << 20),
            max_concurrent_rpcs=_int(e, "CANASTA_MAX_CONCURRENT_RPCS", d.max_concurrent_rpcs,
                                     1, 1 << 20),
            grace_seconds=float(_int(e, "CANASTA_GRACE_SECONDS", int(d.grace_seconds), 0, 3600)),
            max_connection_age_s=_int(e, "CANASTA_GRPC_MAX_CONNECTION_AGE_S",
                                      d.max_connection_age_s, 0, 1 << 24),
            log_level=_choice(e, "CANASTA_LOG_LEVEL", d.log_level,
                              ("DEBUG", "INFO", "WARNING", "ERROR")),
            access_log=_bool(e, "CANASTA_ACCESS_LOG", d.access_log),
            reflection=_bool(e, "CANASTA_REFLECTION", d.reflection),
            state_cache=_int(e, "CANASTA_STATE_CACHE", d.state_cache, 0, 1 << 20),
            export_policy=ExportPolicy(_choice(e, "CANASTA_EXPORT_POLICY", d.export_policy.value,
                                               tuple(p.value for p in ExportPolicy))),
            access=AccessMode(_choice(e, "CANASTA_ACCESS", d.access.value,
                                      tuple(m.value for m in AccessMode))),
            grpc_threads=_int(e, "CANASTA_GRPC_THREADS", d.grpc_threads, 1, 256),
            http_max_header_bytes=_int(e, "CANASTA_HTTP_MAX_HEADER_BYTES",
                                       d.http_max_header_bytes, 1024, 1 << 20),
            http_header_timeout_s=float(_int(e, "CANASTA_HTTP_HEADER_TIMEOUT_S",
                                             int(d.http_header_timeout_s), 1, 3600)),
            http_body_timeout_s=float(_int(e, "CANASTA_HTTP_BODY_TIMEOUT_S",
                                           int(d.http_body_timeout_s), 1, 3600)),
            http_max_connections=_int(e, "CANASTA_HTTP_MAX_CONNECTIONS", d.http_max_connections,
                                      1, 1 << 20),
            cors_origins=_origins(e, "CANASTA_CORS_ORIGINS"),
        )


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {value}")
    return value


_ORIGIN = re.compile(r"https?://([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?")


def _origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated web origins (``scheme://host[:port]``, as browsers send them in
    ``Origin``), or ``*`` alone for any origin."""
    raw = env.get(name, "").strip()
    if not raw or raw == "*":
        return (raw,) if raw else ()
    out: list[str] = []
    for item in raw.split(","):
        origin = item.strip().rstrip("/").lower()
        if not _ORIGIN.fullmatch(origin):
            raise ConfigError(f"{name} must list origins such as https://game.example.com "
                              f"(scheme://host[:port], comma-separated) or be *, not {item!r}")
        if origin not in out:
            out.append(origin)
    return tuple(out)


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be true or false, not {raw!r}")


def _choice(env: Mapping[str, str], name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    value = raw.upper() if default.isupper() else raw.lower()
    if value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
    return value
