"""Named rule options: the registry, parsing and validation.

Each variant publishes a tuple of :class:`OptionSpec`. Callers pass options as a
mapping of names to values (strings from an API, or Python values); every name
must be known and every value valid, or a :class:`~engine.errors.BadInput` is
raised. Nothing is ever silently ignored. The ``opt.`` prefix of the rules files
is accepted and dropped. A value given as text is read as the writers write it
(:func:`~engine.notation_lines.option_text`): an integer in ASCII digits, ``true``
or ``false``, a choice exactly; so an option, and a position that holds it, has one text.

An option several games have goes by one name in all of them (:data:`SHARED`), so a
client sets the target score or the tie policy without knowing the variant; the
names a variant used before stay accepted as aliases (snapshots and positions
written with them still open), and answers use the current name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from engine.errors import BadInput, BadOption, Reason
from engine.numerals import unsigned

OptionValue = bool | int | str

# The options shared by the games that have them: the score that ends the game and what
# an exact tie at the end does (May I? has neither: its schedule of deals ends it, MI-GAME-2).
TARGET_SCORE: Final = "target_score"
TIE_POLICY: Final = "tie_policy"
TIE_CHOICES: Final = ("play_on", "draw")
SHARED: Final = (TARGET_SCORE, TIE_POLICY)
# The largest value of any integer option: a limit of the service, not a rule. The API
# carries scores, minimums and counts as 32-bit integers; with every target, bonus and
# threshold at most a million, no score or count that play makes leaves that range (a
# bonus of 10^10 made the first answer to show it fail as an internal error).
INT_OPTION_MAX: Final = 1_000_000


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its name, type, default (``None`` = derived from the table), choices."""

    name: str
    kind: type
    default: OptionValue | None
    rule: str
    doc: str
    # a choice's values; of an integer option, the words it takes besides a number (May I?'s
    # max_buys_per_deal: none), which its kind's parse leaves to the variant's
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = INT_OPTION_MAX
    # former names of this option, still accepted on input
    aliases: tuple[str, ...] = ()
    # when the former names took true/false: the value each means (for true, for false)
    alias_from_bool: tuple[str, str] | None = None

    def from_alias(self, alias: str, raw: object) -> object:
        """A value given under a former name, as this option reads it.

        :raises BadOption: reason ``BAD_OPTION_VALUE``.
        """
        if self.alias_from_bool is None:
            return raw
        yes, no = self.alias_from_bool
        return yes if _parse_bool(alias, raw) else no

    def parse(self, raw: object) -> OptionValue:
        """Parse and validate a raw value: a Python value of the option's type, or its text
        as written (``str(raw)`` of any other value is read as that text).

        :raises BadOption: reason ``BAD_OPTION_VALUE``.
        """
        if self.kind is bool:
            return _parse_bool(self.name, raw)
        if self.kind is int:
            return self._parse_int(raw)
        text = str(raw)
        if text not in self.choices:
            raise BadOption(
                self.name,
                f"option {self.name} must be one of {', '.join(self.choices)}, not {raw!r}",
            )
        return text

    def _parse_int(self, raw: object) -> int:
        if isinstance(raw, bool):
            raise BadOption(self.name, f"option {self.name} needs an integer")
        # as written: '+1500', ' 1500', '1_500', '01500' and '١٥٠٠' are no value of it
        value = raw if isinstance(raw, int) else unsigned(str(raw))
        if value is None:
            raise BadOption(self.name, f"option {self.name} needs a whole number "
                            f"written as digits, not {raw!r}")
        if value < self.minimum:
            raise BadOption(self.name, f"option {self.name} must be at least {self.minimum}")
        if value > self.maximum:
            raise BadOption(self.name, f"option {self.name} must be at most {self.maximum}")
        return value


def _parse_bool(name: str, raw: object) -> bool:
    """A Python bool, or ``true`` or ``false`` as written: 'yes', '1', 'TRUE' and ' true'
    were read too, so one option had several texts."""
    if isinstance(raw, bool):
        return raw
    if raw == "true":
        return True
    if raw == "false":
        return False
    raise BadOption(name, f"option {name} needs true or false, not {raw!r}")


def resolve_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, object] | None
) -> dict[str, OptionValue | None]:
    """Merge given options over the defaults; unknown names are an error, and so is
    one option given under two of its names.

    :raises BadInput: reason ``UNKNOWN_OPTION``; a :class:`BadOption`, ``BAD_OPTION_VALUE``.
    """
    by_name = {s.name: s for s in specs}
    by_alias = {a: s for s in specs for a in s.aliases}
    values: dict[str, OptionValue | None] = {s.name: s.default for s in specs}
    given_as: dict[str, str] = {}
    for raw_name, raw in (given or {}).items():
        name = raw_name.removeprefix("opt.")
        spec = by_name.get(name)
        value = raw
        if spec is None:
            spec = by_alias.get(name)
            if spec is None:
                raise BadInput(Reason.UNKNOWN_OPTION, f"unknown option {raw_name!r}")
            value = spec.from_alias(name, raw)
        parsed = spec.parse(value)
        if spec.name in given_as and values[spec.name] != parsed:
            raise BadOption(raw_name, f"option {spec.name} is given twice with different "
                            f"values (as {given_as[spec.name]} and {raw_name})")
        given_as[spec.name] = raw_name
        values[spec.name] = parsed
    return values


def options_table(specs: tuple[OptionSpec, ...]) -> str:
    """A variant's options as the Markdown table its rules page prints, made from the
    declarations so the page cannot drift from them (tests/test_rules_docs.py)."""
    rows = ["| Option | Default | Values | Rule | What it does |", "|---|---|---|---|---|"]
    for spec in specs:
        name = f"`{spec.name}`"
        if spec.aliases:
            name += " (alias " + ", ".join(f"`{a}`" for a in spec.aliases) + ")"
        if spec.default is None:
            default = "by table shape"
        elif isinstance(spec.default, bool):
            default = str(spec.default).lower()
        else:
            default = str(spec.default)
        if spec.kind is bool:
            values = "true, false"
        elif spec.kind is int:
            values = f"integer {spec.minimum}–{spec.maximum:,}"
            values += "".join(f", `{c}`" for c in spec.choices)
        else:
            values = ", ".join(f"`{c}`" for c in spec.choices)
        doc = spec.doc.replace("|", "\\|")
        rows.append(f"| {name} | {default} | {values} | {spec.rule} | {doc} |")
    return "\n".join(rows) + "\n"
