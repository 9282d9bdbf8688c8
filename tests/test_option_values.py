"""Rule option values are read as the writers write them (engine/notation_lines.py
``option_text``: ``str(n)``, ``true``/``false``, a choice as listed), so an option, and a
position or record that holds it, has one text. ``int`` read '+1500', ' 1500', '1_500',
'01500' and '١٥٠٠' as 1500; a bool took yes/1/on in any case with spaces; a choice was
stripped (engine/options.py)."""

from __future__ import annotations

import pytest

from engine import records
from engine.errors import BadInput, Reason
from engine.game import new_game, rules_for
from engine.notation import export_position, import_position
from engine.notation_lines import option_text
from engine.options import OptionSpec
from engine.variants import catalogue

# texts int() read as 1500
INT_TWINS = ["+1500", " 1500", "1500 ", "1_500", "01500", "\u0661\u0665\u0660\u0660"]
BOOL_TWINS = ["yes", "1", "on", "TRUE", "True", " true", "true ", "no", "0", "off", "FALSE"]
CHOICE_TWINS = [" draw", "draw "]
# May I?'s schedule and its buy limit of none, as the notation does not write them
MAYI_TWINS = [("schedule", "rr, ss"), ("schedule", "SS,SR"), ("schedule", " ss"),
              ("schedule", "rs"), ("max_buys_per_deal", "NONE"), ("max_buys_per_deal", " none"),
              ("max_buys_per_deal", "null"), ("max_buys_per_deal", "")]


def refused(variant: str, players: int, options: dict[str, object]) -> BadInput:
    with pytest.raises(BadInput) as err:
        rules_for(variant, players, options)
    assert err.value.reason is Reason.BAD_OPTION_VALUE, err.value
    return err.value


@pytest.mark.parametrize("text", INT_TWINS)
def test_an_integer_option_not_as_written_is_refused(text: str) -> None:
    err = refused("classic", 2, {"target_score": text})
    assert err.message == ("option target_score needs a whole number written as digits, "
                           f"not {text!r}")


@pytest.mark.parametrize("text", BOOL_TWINS)
def test_a_bool_option_is_true_or_false_as_written(text: str) -> None:
    err = refused("classic", 2, {"penalties": text})
    assert err.message == f"option penalties needs true or false, not {text!r}"


@pytest.mark.parametrize("text", ["yes", "1", "TRUE", " true"])
def test_a_former_bool_name_reads_true_or_false_as_written(text: str) -> None:
    """SV-GAME-1's former sv.tiebreak_extra_deal takes true/false as every bool does."""
    err = refused("bolivia_sevens", 4, {"sv.tiebreak_extra_deal": text})
    assert "option sv.tiebreak_extra_deal needs true or false" in err.message


@pytest.mark.parametrize("text", CHOICE_TWINS)
def test_a_choice_is_one_of_its_choices_exactly(text: str) -> None:
    err = refused("classic", 2, {"tie_policy": text})
    assert err.message == f"option tie_policy must be one of play_on, draw, not {text!r}"


@pytest.mark.parametrize(("name", "text"), MAYI_TWINS)
def test_may_i_options_are_read_as_written(name: str, text: str) -> None:
    """A custom schedule as written (``ss,sr``: no spaces, lower case, a deal's sets
    first) and no buy limit as ``none``; ``rs`` was read as ``sr``, ``null`` as none."""
    err = refused("may_i", 3, {name: text})
    assert name in err.message


def test_python_values_and_the_written_forms_are_read() -> None:
    """An engine caller's Python values stay accepted, and the written texts mean them."""
    given = {"target_score": 1500, "penalties": True, "tie_policy": "draw"}
    written = {"target_score": "1500", "penalties": "true", "tie_policy": "draw"}
    assert rules_for("classic", 2, given) == rules_for("classic", 2, written)
    assert (rules_for("bolivia_sevens", 4, {"sv.tiebreak_extra_deal": "false"})
            == rules_for("bolivia_sevens", 4, {"sv.tiebreak_extra_deal": False}))
    mayi = rules_for("may_i", 3, {"schedule": ("ss", "sr"), "max_buys_per_deal": None})
    assert mayi == rules_for("may_i", 3, {"schedule": "ss,sr", "max_buys_per_deal": "none"})
    # the option's description offers unlimited too
    assert mayi == rules_for("may_i", 3, {"schedule": "ss,sr", "max_buys_per_deal": "unlimited"})


def test_an_integer_too_long_for_int_is_a_bad_value() -> None:
    """More digits than ``int`` reads (4300) is the option's refusal, not ``int``'s."""
    err = refused("classic", 2, {"target_score": "9" * 5000})
    assert "needs a whole number written as digits" in err.message


def _other(spec: OptionSpec, value: object) -> object:
    """A valid value of ``spec`` other than ``value``."""
    if spec.kind is bool:
        return not value
    if spec.kind is int:
        return spec.minimum if value != spec.minimum else spec.minimum + 1
    return next(c for c in spec.choices if c != value)


OPTIONS = [(info.id, info.min_players, spec) for info in catalogue() for spec in info.options]


@pytest.mark.parametrize(("variant", "players", "spec"), OPTIONS,
                         ids=[f"{v}-{s.name}" for v, _, s in OPTIONS])
def test_every_option_as_the_notation_writes_it_reads_back(variant: str, players: int,
                                                           spec: OptionSpec) -> None:
    """Every option's default, and another value, written as the notation writes it, read
    back to the same rules; a position holding the other value round-trips."""
    plain = rules_for(variant, players)
    default = dict(plain.options)[spec.name]
    assert rules_for(variant, players, {spec.name: option_text(default)}) == plain
    other = _other(spec, default)
    if spec.name == "buy_penalty_cards":
        other = 2  # 1 or 2 (MI-BUY-2)
    state = new_game(variant, players, seed=3, options={spec.name: other})
    text = export_position(state)
    assert f"{spec.name}={option_text(other)}" in text
    assert import_position(text) == state
    assert dict(state.rules.options)[spec.name] == other


CANASTA_LINE = "options: target_score=1500"
# the options line's spaces around a name or value are its separators' (docs/notation.md)
LINE_TWINS = [t for t in INT_TWINS if t == t.strip()]


@pytest.mark.parametrize("line", [*(f"options: target_score={t}" for t in LINE_TWINS),
                                  "options: penalties=yes,target_score=1500"])
def test_a_canasta_position_option_not_as_written_is_refused(line: str) -> None:
    """``options: target_score=+1500`` and ``target_score=1500`` were two texts of one
    position."""
    text = export_position(new_game("classic", 2, seed=5, options={"target_score": 1500}))
    assert f"\n{CANASTA_LINE}\n" in text
    with pytest.raises(BadInput) as err:
        import_position(text.replace(CANASTA_LINE, line))
    assert err.value.reason is Reason.BAD_OPTION_VALUE


MAYI_LINE = "options: turn_upcard=true"


@pytest.mark.parametrize("line", ["options: turn_upcard=yes", "options: turn_upcard=1",
                                  "options: turn_upcard=TRUE",
                                  "options: turn_upcard=true; buy_penalty_cards=+2",
                                  "options: turn_upcard=true; schedule=rs,ss"])
def test_a_may_i_position_option_not_as_written_is_refused(line: str) -> None:
    text = export_position(new_game("may_i", 3, seed=5, options={"turn_upcard": True}))
    assert f"\n{MAYI_LINE}\n" in text
    with pytest.raises(BadInput) as err:
        import_position(text.replace(MAYI_LINE, line))
    assert err.value.reason is Reason.BAD_OPTION_VALUE


@pytest.mark.parametrize(("variant", "players", "options", "line", "twin"), [
    ("classic", 2, {"target_score": 1500}, "target_score=1500", "target_score=01500"),
    ("classic", 2, {"penalties": True}, "penalties=true", "penalties=on"),
    ("may_i", 3, {"turn_upcard": True}, "turn_upcard=true", "turn_upcard=yes"),
])
def test_a_record_option_not_as_written_is_refused(variant: str, players: int,
                                                   options: dict[str, object], line: str,
                                                   twin: str) -> None:
    """A record's options line is read as the position notation's (docs/records.md)."""
    text = records.write(records.begin(new_game(variant, players, seed=5, options=options)))
    assert f"\noptions: {line}\n" in text
    records.replay(text)
    with pytest.raises(BadInput) as err:
        records.replay(text.replace(line, twin))
    assert err.value.reason is Reason.BAD_OPTION_VALUE
