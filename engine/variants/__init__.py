"""The variant registry: id -> module with NAME, OPTIONS, player range and ``build``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from mypy_extensions import mypyc_attr

from engine.errors import BadInput, Reason
from engine.mayi.rules import MayIRules
from engine.options import OptionSpec
from engine.rules import RuleSet
from engine.variants import bolivia, bolivia_sevens, classic, may_i, samba


@mypyc_attr(native_class=False)
class VariantModule(Protocol):
    NAME: str
    NAME_RU: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    OPTIONS: tuple[OptionSpec, ...]

    def build(self, players: int,
              options: Mapping[str, object] | None = None) -> RuleSet | MayIRules: ...


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class VariantInfo:
    id: str
    name: str
    name_ru: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]


# May I? builds its own rule set (engine.mayi.rules.MayIRules), not a Canasta RuleSet.
VARIANTS: dict[str, VariantModule] = {
    "classic": classic, "samba": samba, "bolivia": bolivia, "bolivia_sevens": bolivia_sevens,
    "may_i": may_i}
# Other names a variant is found by (not listed in the catalogue).
ALIASES: dict[str, str] = {"chile_provisional": "bolivia_sevens"}


def variant_module(variant: str) -> VariantModule:
    """:raises BadInput: ``UNKNOWN_VARIANT``."""
    found = VARIANTS.get(ALIASES.get(variant, variant))
    if found is None:
        raise BadInput(Reason.UNKNOWN_VARIANT,
                       f"unknown variant {variant!r}; known: {', '.join(sorted(VARIANTS))}")
    return found


def catalogue() -> list[VariantInfo]:
    return [VariantInfo(k, m.NAME, m.NAME_RU, m.MIN_PLAYERS, m.MAX_PLAYERS, m.OPTIONS)
            for k, m in VARIANTS.items()]
