"""Service settings, read once from ``CANASTA_*`` environment variables (pydantic-settings).

Every setting has an embedded default so ``make run`` needs nothing else, and a
description (``Settings.model_json_schema()``; the README's "Configuration" section
lists them all). Blank values mean the default. A value that does not parse or is
out of range stops the process with a message naming the variable
(:class:`ConfigError`) instead of being replaced silently.

``Settings(...)`` is exactly what its caller passes (tests, embedding);
:meth:`Settings.from_env` is where the service reads the environment; two names are
read where they act, before any settings exist: ``CANASTA_ENGINE`` (engine/build.py, at
the engine's import; the settings check its value) and ``CANASTA_WEB_DIR``
(service/rest/pages.py).
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

PREFIX = "CANASTA_"
# CANASTA_* names read outside the settings: by the web pages (above), by the
# reference host (CANASTA_HOST_*), and by the SDKs' and clients' tests and examples
READ_ELSEWHERE = frozenset({"CANASTA_WEB_DIR", "CANASTA_GRPC_TARGET", "CANASTA_REST_URL",
                            "CANASTA_SDK_CACHE", "CANASTA_FUZZ_EXAMPLES"})

# Settings an earlier release read, with what replaces them (docs/operations.md, *Scaling*).
REMOVED = {
    "CANASTA_WORKERS": "one process serves; run more replicas (or processes on other ports) "
                       "to use more cores",
    "CANASTA_WORKER_AFFINITY": "it went with CANASTA_WORKERS",
}


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


def _whole(value: Any) -> Any:
    """Seconds are whole numbers in the environment (``1.5`` is refused, as it always was)."""
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise ValueError("must be a whole number of seconds") from None
    return value


Seconds = Annotated[float, BeforeValidator(_whole)]
_ORIGIN = re.compile(r"https?://([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?")


class Settings(BaseSettings):
    """The service's settings; each field is the variable ``CANASTA_<FIELD NAME>``."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, frozen=True, extra="forbid",
                                      validate_by_name=True)

    bind: str = Field("127.0.0.1", description="address every server binds (0.0.0.0 or :: "
                                               "for all)")
    grpc_port: int = Field(50051, ge=0, le=65535, description="gRPC port (0: any free port)")
    http_port: int = Field(8080, ge=0, le=65535, description="REST/HTTP port (0: any free "
                                                             "port)")
    metrics_port: int | None = Field(None, ge=0, le=65535, description="port serving "
                                     "/metrics apart, where only the scraper reaches (0: any "
                                     "free port); unset: /metrics on the HTTP port")
    seal_keys: str = Field("", description="snapshot keys KEY_ID:KEY,... (32-byte keys, "
                                           "base64 or hex); the first seals, all open")
    dev_key_file: str = Field("", description="with no CANASTA_SEAL_KEYS: a development key "
                                              "file, made on first use, with a warning")
    max_message_bytes: int = Field(65536, ge=1024, le=64 << 20,
                                   description="largest request on either face")
    max_snapshot_bytes: int = Field(16384, ge=256, le=16 << 20,
                                    description="largest snapshot accepted")
    max_concurrent_rpcs: int = Field(256, ge=1, le=1 << 20,
                                     description="concurrent gRPC calls of the engine, and "
                                     "REST long calls running or queued")
    grace_seconds: Seconds = Field(10.0, ge=0, le=3600, description="on SIGTERM/SIGINT, how "
                                   "long in-flight calls may take to finish")
    max_connection_age_s: int = Field(  # at most what gRPC's 32-bit milliseconds hold
        0, ge=0, le=(2**31 - 1) // 1000, validation_alias=f"{PREFIX}GRPC_MAX_CONNECTION_AGE_S",
        description="close gRPC connections after this age so clients rebalance (0: off)")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        "INFO", description="DEBUG, INFO, WARNING or ERROR")
    access_log: bool = Field(True, description="one JSON log line per call")
    reflection: bool = Field(True, description="gRPC server reflection")
    state_cache: int = Field(1024, ge=0, le=1 << 20,
                             description="opened snapshots kept in memory (LRU; 0: off)")
    export_policy: ExportPolicy = Field(ExportPolicy.ANY, description="what the host may "
                                        "export with ExportPosition: any, imported or off")
    access: AccessMode = Field(AccessMode.TOKENS, description="tokens: every answer is scoped "
                               "to the caller's credential; trusted: a call without one acts "
                               "as the host")
    grpc_threads: int = Field(2, ge=1, le=256,
                              description="threads the engine's gRPC calls run in")
    long_call_threads: int = Field(2, ge=1, le=64, description="threads the long calls "
                                   "(a bot's search, a record's replay) run in, on each face")
    # REST (service/rest/limits.py): what one client may make the server hold, and for how long
    http_max_header_bytes: int = Field(32768, ge=1024, le=1 << 20,
                                       description="largest REST header block, and "
                                       "gRPC call's metadata")
    http_header_timeout_s: Seconds = Field(10.0, ge=1, le=3600, description="seconds a REST "
                                           "request's headers may take to arrive")
    http_body_timeout_s: Seconds = Field(30.0, ge=1, le=3600, description="seconds a REST "
                                         "request's body may take to arrive after its headers")
    http_max_connections: int = Field(1000, ge=1, le=1 << 20,
                                      description="open REST connections per process")
    cors_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="web origins allowed to call REST from a browser, comma-separated "
                        "(scheme://host[:port]), or * for any; none: no CORS headers")
    # Read by the engine at its import (engine/build.py), before any settings: checked here
    # so that another value (``plain``) stops the process instead of running either build.
    engine: Literal["pure"] | None = Field(None, description="pure: run the engine as plain "
                                           "Python even when a compiled build is there")

    @model_validator(mode="before")
    @classmethod
    def _blank_is_default(cls, data: Any) -> Any:
        """Values are stripped; a blank one means the default."""
        if not isinstance(data, dict):
            return data
        out = {}
        for key, value in data.items():
            if isinstance(value, str):
                value = value.strip()
                if not value:
                    continue
            out[key] = value
        return out

    @field_validator("http_port", "metrics_port")
    @classmethod
    def _own_port(cls, value: int | None, info: ValidationInfo) -> int | None:
        """Each server listens on a port of its own: a port given twice failed to bind as
        if another process held it ("address already in use")."""
        for other in ("grpc_port", "http_port"):
            if value and other != info.field_name and info.data.get(other) == value:
                raise ValueError(f"is {cls.env_name(other)} too: each server needs a port "
                                 "of its own")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @field_validator("export_policy", "access", "engine", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> Any:
        """Comma-separated web origins (``scheme://host[:port]``, as browsers send them in
        ``Origin``), or ``*`` alone for any origin."""
        if not isinstance(value, str):
            return value
        if value == "*":
            return ("*",)
        out: list[str] = []
        for item in value.split(","):
            origin = item.strip().rstrip("/").lower()
            if not _ORIGIN.fullmatch(origin):
                raise ValueError("must list origins such as https://game.example.com "
                                 "(scheme://host[:port], comma-separated) or be *")
            if origin not in out:
                out.append(origin)
        return tuple(out)

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only what the caller passes: :meth:`from_env` adds the environment."""
        return (init_settings,)

    @classmethod
    def env_name(cls, field: str) -> str:
        """The variable that sets ``field``."""
        alias = cls.model_fields[field].validation_alias
        return alias if isinstance(alias, str) else PREFIX + field.upper()

    @classmethod
    def env_names(cls) -> frozenset[str]:
        """Every variable the settings read."""
        return frozenset(cls.env_name(f) for f in cls.model_fields)

    @classmethod
    def misspelt(cls, env: Mapping[str, str] | None = None) -> dict[str, str]:
        """``CANASTA_*`` names in the environment that are no setting but nearly spell one,
        each with that setting: a typo would otherwise leave its setting at the default
        without a word (``CANASTA_ACCES=trusted``). Other ``CANASTA_*`` names are left alone:
        other programs read them."""
        known = cls.env_names() | READ_ELSEWHERE
        out: dict[str, str] = {}
        removed = REMOVED.keys()
        for name in os.environ if env is None else env:
            upper = name.upper()
            if upper.startswith(PREFIX) and name not in known and name not in removed \
                    and not upper.startswith(PREFIX + "HOST_"):
                close = difflib.get_close_matches(upper, sorted(known), n=1, cutoff=0.85)
                if close:
                    out[name] = close[0]
        return out

    @classmethod
    def removed(cls, env: Mapping[str, str] | None = None) -> dict[str, str]:
        """Settings of an earlier release that the environment still sets, each with what
        to do instead: an operator upgrading would otherwise lose them without a word."""
        given = os.environ if env is None else env
        return {name: instead for name, instead in REMOVED.items() if name in given}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from the environment (``os.environ`` by default).

        :raises ConfigError: a value does not parse or is out of range.
        """
        source = EnvSettingsSource(cls)
        # the source reads os.environ case-insensitively; the names are exact (a lower-case
        # canasta_grpc_port is not a setting) and a given mapping replaces the environment
        given = os.environ if env is None else env
        source.env_vars = {n.lower(): given[n] for n in cls.env_names() if n in given}
        try:
            return cls(**source())
        except ValidationError as err:
            raise ConfigError("; ".join(_explain(cls, e) for e in err.errors())) from None


def _explain(cls: type[Settings], error: Any) -> str:
    """One validation error as ``CANASTA_X: what is wrong, not 'value'``."""
    key = str(error["loc"][0]) if error["loc"] else ""
    name = cls.env_name(key) if key in cls.model_fields else key
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{name}: {message}, not {error['input']!r}"


__all__ = ["AccessMode", "ConfigError", "ExportPolicy", "Settings"]
