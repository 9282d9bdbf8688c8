"""``make demo`` (``service/demo.py``) as a newcomer reads it: a seeded hand played out by
bots holding their own seats' tokens, each line a whole sentence."""

from __future__ import annotations

import pytest

from service import demo


def test_the_demo_plays_a_hand_out_and_says_how(capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main(["--seed", "2026"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "classic canasta, 4 players, seed 2026",
        "credentials: a host token and 4 seat tokens; each bot plays with its own seat's token",
        "seat 0's first move sent without a token (a spectator's): refused, CREDENTIAL_REQUIRED"]
    assert any(line.startswith("hand over: ") for line in lines)
    assert [line.split(":")[0] for line in lines[-2:]] == ["team 0", "team 1"]


def test_a_side_holding_no_card_shows_in_hand_0(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 3 for two: seat 1 goes out, so its side holds no card; the score line says
    ``in hand 0``, not ``-0``, and the other side's cards count against it (``-N``)."""
    assert demo.main(["--seed", "3", "--players", "2"]) == 0
    team0, team1 = capsys.readouterr().out.splitlines()[-2:]
    assert ", in hand 0 => " in team1, team1
    assert ", in hand -" in team0 and "in hand -0 " not in team0, team0
