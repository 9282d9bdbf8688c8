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
