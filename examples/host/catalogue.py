"""The games the index page offers (``GET /api/variants``), each with its rule options as
the rules service's ``ListVariants`` lists them: the page builds its form from these, so an
option the service adds is offered without a change to the host."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from canasta.v1.game_pb2 import OptionType, Variant, VariantOption, VariantTable

TABLE_FIELDS = VariantTable.DESCRIPTOR.fields_by_name


def by_players(option: VariantOption, tables: Iterable[VariantTable]) -> dict[str, str]:
    """An option's default at each player count, when it has no one default (it "depends on
    the player count") and each count's table says it, as ``target_score`` (classic: 5000,
    10000 for six); else ``{}``."""
    if option.HasField("default_value") or option.name not in TABLE_FIELDS:
        return {}
    return {str(t.players): str(getattr(t, option.name)) for t in tables}


def option_json(option: VariantOption, tables: Iterable[VariantTable]) -> dict[str, Any]:
    """One option for the page: ``type`` is ``bool``, ``int`` or ``choice``; ``default`` its
    text (``None``: by player count, ``default_by_players``); ``choices`` a choice's values,
    or the words an integer takes besides a number. It is offered at every player
    count, as the service lists it: a rule's section does not bound where its option acts
    (``black_three_meld_max``, CL-P6-9, limits going out at four players too)."""
    return {"name": option.name,
            "type": OptionType.Name(option.type).removeprefix("OPTION_TYPE_").lower(),
            "default": option.default_value if option.HasField("default_value") else None,
            "default_by_players": by_players(option, tables),
            "choices": list(option.choices), "minimum": option.minimum,
            "maximum": option.maximum, "rule": option.rule,
            "description": option.description}


def variant_json(variant: Variant) -> dict[str, Any]:
    """A game for the page: its id, name, player counts and options."""
    return {"id": variant.id, "name": variant.name, "min_players": variant.min_players,
            "max_players": variant.max_players,
            "options": [option_json(o, variant.tables) for o in variant.options]}
