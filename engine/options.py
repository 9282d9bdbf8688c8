"""Named rule options: the registry, parsing and validation.

Each variant publishes a tuple of :class:`OptionSpec`. Callers pass options as a
mapping of names to values (strings from an API, or Python values); every name
must be known and every value valid, or a :class:`~engine.errors.BadInput` is
raised. Nothing is ever silently ignored. The ``opt.`` prefix of the rules files
is accepted and dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from engine.errors import BadInput, Reason

OptionValue = bool | int | str


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its name, type, default (``None`` = derived from the table), choices."""

    name: str
    kind: type
    default: OptionValue | None
    rule: str
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int = 0

    def parse(self, raw: object) -> OptionValue:
        """Parse and validate a raw value.

        :raises BadInput: reason ``BAD_OPTION_VALUE``.
        """
        if self.kind is bool:
            return _parse_bool(self.name, raw)
        if self.kind is int:
            return self._parse_int(raw)
        text = str(raw).strip()
        if text not in self.choices:
            raise BadInput(
                Reason.BAD_OPTION_VALUE,
                f"option {self.name} must be one of {', '.join(self.choices)}, not {raw!r}",
            )
        return text

    def _parse_int(self, raw: object) -> int:
        if isinstance(raw, bool):
            raise BadInput(Reason.BAD_OPTION_VALUE, f"option {self.name} needs an integer")
        try:
            value = int(str(raw).strip()) if not isinstance(raw, int) else raw
        except ValueError:
            raise BadInput(
                Reason.BAD_OPTION_VALUE, f"option {self.name} needs an integer, not {raw!r}"
            ) from None
        if value < self.minimum:
            raise BadInput(
                Reason.BAD_OPTION_VALUE, f"option {self.name} must be at least {self.minimum}"
            )
        return value

    def describe(self) -> str:
        if self.kind is bool:
            return "true | false"
        if self.kind is int:
            return f"integer >= {self.minimum}"
        return " | ".join(self.choices)


def _parse_bool(name: str, raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    raise BadInput(Reason.BAD_OPTION_VALUE, f"option {name} needs true or false, not {raw!r}")


def resolve_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, object] | None
) -> dict[str, OptionValue | None]:
    """Merge given options over the defaults; unknown names are an error.

    :raises BadInput: reasons ``UNKNOWN_OPTION`` or ``BAD_OPTION_VALUE``.
    """
    by_name = {s.name: s for s in specs}
    values: dict[str, OptionValue | None] = {s.name: s.default for s in specs}
    for raw_name, raw in (given or {}).items():
        name = raw_name.removeprefix("opt.")
        spec = by_name.get(name)
        if spec is None:
            raise BadInput(Reason.UNKNOWN_OPTION, f"unknown option {raw_name!r}")
        values[name] = spec.parse(raw)
    return values
