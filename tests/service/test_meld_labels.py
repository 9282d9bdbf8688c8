"""`MeldView.label` and `MeldView.kind` over the real service, on gRPC and on REST.

A Samba or Bolivia host reads off the table which label names which meld: every
label a listed move names (``add K#2 KC``, ``take 9S 9C on 9``, ``take on S:5-9``,
``merge K K#2``, and their typed arms ``AddToMeld.label``/``rank`` and
``TakePile.target``) is the label of one of the mover's side's melds in the view,
the move then acts on that meld, and ``kind`` matches the meld's cards.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import httpx
import pytest

from service.api.pb import api, api_grpc, game
from tests.service.helpers import call_grpc, call_rest, ok

RANKS = "23456789TJQKA"
KINDS = {"group", "black_threes", "wild", "sequence"}
SEQUENCE = re.compile(r"^([SHDC]):([4-9TJQKA])-([4-9TJQKA])$")
# the labels a listed move's text names, by the move's form
ADD = re.compile(r"^add (\S+) ")
TAKE_ON = re.compile(r"^take .*\bon (\S+)$")
MERGE = re.compile(r"^merge (\S+) (\S+)$")


@pytest.fixture(params=["grpc", "rest"])
def call(request: pytest.FixtureRequest, stub: api_grpc.CanastaEngineStub, http: httpx.Client):
    if request.param == "grpc":
        return lambda method, req, token=None: ok(call_grpc(stub, method, req, token=token))
    return lambda method, req, token=None: ok(call_rest(http, method, req, token=token))


def is_wild(code: str) -> bool:
    return code == "JK" or code[0] == "2"


def check_shape(m: game.MeldView) -> None:
    """``kind``, ``rank`` and ``wilds`` agree with the cards."""
    assert m.kind in KINDS, m
    base = m.label.partition("#")[0]
    assert m.rank == base, m  # rank is the label without its ordinal
    wild = [c for c in m.cards if is_wild(c)]
    natural = [c for c in m.cards if not is_wild(c)]
    assert m.wilds == len(wild), m
    if m.kind == "group":
        assert m.rank in RANKS[2:] and natural, m
        assert {c[0] for c in natural} == {m.rank}, m
    elif m.kind == "black_threes":
        assert m.rank == "3" and not wild, m
        assert set(m.cards) <= {"3S", "3C"}, m
    elif m.kind == "wild":
        assert m.rank == "W" and not natural, m
    else:
        seq = SEQUENCE.match(m.rank)
        assert seq is not None and not wild, m
        suit, low, high = seq.groups()
        assert {c[1] for c in m.cards} == {suit}, m
        assert sorted(RANKS.index(c[0]) for c in m.cards) == list(
            range(RANKS.index(low), RANKS.index(high) + 1)), m


def named_labels(move: game.Move) -> list[str]:
    """The labels a listed move names, from its text and from its typed arm (which agree)."""
    text = move.text
    by_text: list[str] = []
    if (add := ADD.match(text)) is not None:
        by_text = [add.group(1)]
    elif (on := TAKE_ON.match(text)) is not None:
        by_text = [on.group(1)]
    elif (merge := MERGE.match(text)) is not None:
        by_text = [merge.group(1), merge.group(2)]
    kind = move.WhichOneof("kind")
    if kind == "add_to_meld":
        typed = [move.add_to_meld.label or move.add_to_meld.rank]
    elif kind == "take_pile":
        typed = [move.take_pile.target] if move.take_pile.target else []
    elif kind == "merge":
        typed = [move.merge.first, move.merge.second]
    else:
        typed = []
    assert typed == by_text, (text, move)
    return by_text


def movers_side(view: game.SeatView) -> game.SideView:
    return next(s for s in view.sides if view.seat in s.seats)


def grew(before: game.MeldView, after: list[game.MeldView], cards: list[str]) -> bool:
    """Some meld of ``after`` holds ``before``'s cards and ``cards`` (the move acted on it)."""
    wanted = Counter(before.cards) + Counter(cards)
    return any(not wanted - Counter(m.cards) for m in after)


@pytest.mark.parametrize(("variant", "seed"), [("samba", 4), ("bolivia", 3)])
def test_listed_moves_name_the_labels_of_the_view(call, variant: str, seed: int) -> None:
    rng = random.Random(seed)
    resp = call("Deal", api.DealRequest(variant=variant, players=4, seed=seed))
    host = resp.host_token  # the test reads every seat's view, as a host does
    snapshot, views = resp.snapshot, list(resp.views)
    kinds: set[str] = set()
    named: set[str] = set()
    acted = 0
    for _ in range(500):
        for view in views:  # every seat sees every side's melds, each with a unique label
            for side in view.sides:
                labels = [m.label for m in side.melds]
                assert len(set(labels)) == len(labels), labels
                for m in side.melds:
                    check_shape(m)
                    kinds.add(m.kind)
        legal = call("LegalMoves", api.LegalMovesRequest(snapshot=snapshot), host)
        if legal.seat < 0:  # the hand is over
            resp = call("NextDeal", api.NextDealRequest(snapshot=snapshot), host)
            snapshot, views = resp.snapshot, list(resp.views)
            continue
        mine = next(v for v in views if v.seat == legal.seat)
        assert list(mine.legal_moves) == [m.text for m in legal.moves]
        table = {m.label: m for m in movers_side(mine).melds}
        for move in legal.moves:
            for label in named_labels(move):
                assert label in table, (move.text, sorted(table))
                named.add(label)
        texts = [m.text for m in legal.moves]
        labelled = [m for m in legal.moves if named_labels(m)]
        melds = [m for m in legal.moves if m.text.startswith(("meld", "take", "out"))]
        wild = [m for m in melds if m.text.startswith("meld ")
                and all(is_wild(c) for c in m.text.split()[1:])]
        if wild:  # a meld of wild cards (Bolivia) is rare in random play
            move = rng.choice(wild)
        elif labelled and rng.random() < 0.6:
            move = rng.choice(labelled)
        elif melds and rng.random() < 0.8:
            move = rng.choice(melds)
        else:
            move = rng.choice([m for m in legal.moves if m.text != "undo"] or legal.moves)
        resp = call("ApplyMove", api.ApplyMoveRequest(snapshot=snapshot, move=move), host)
        snapshot, views = resp.snapshot, list(resp.views)
        kind = move.WhichOneof("kind")
        after = next(v for v in views if v.seat == legal.seat)
        if kind in ("add_to_meld", "take_pile") and named_labels(move):
            cards = list(move.add_to_meld.cards) if kind == "add_to_meld" else [mine.pile_top]
            assert grew(table[named_labels(move)[0]], list(movers_side(after).melds), cards), \
                (move.text, texts)
            acted += 1
    wanted = {"group", "sequence"} | ({"wild"} if variant == "bolivia" else set())
    assert wanted <= kinds, f"{variant} seed {seed}: saw kinds {sorted(kinds)} (pick another seed)"
    assert any("#" in label for label in named) and any(":" in label for label in named), \
        f"{variant} seed {seed}: named only {sorted(named)} (pick another seed)"
    assert acted > 10


def test_may_i_melds_have_no_label_and_their_kind(call) -> None:
    """May I? names a meld by seat and index (``layoff 2:1 9D``): labels stay empty; a
    set is a ``group`` (rank: its rank character), a run a ``sequence`` (rank: its suit)."""
    rng = random.Random(5)
    resp = call("Deal", api.DealRequest(variant="may_i", players=3, seed=5,
                                        options={"mayi.schedule": "sr"}))
    host = resp.host_token
    snapshot, seen = resp.snapshot, set()
    for _ in range(300):
        for view in resp.views:
            for side in view.sides:
                for m in side.melds:
                    run = m.rank in "SHDC"
                    assert (m.label, m.kind) == ("", "sequence" if run else "group"), m
                    seen.add("run" if run else "set")
        legal = call("LegalMoves", api.LegalMovesRequest(snapshot=snapshot), host)
        if legal.seat < 0:
            resp = call("NextDeal", api.NextDealRequest(snapshot=snapshot), host)
        else:
            down = [m for m in legal.moves if m.text.startswith(("down", "layoff"))]
            move = rng.choice(down or legal.moves)
            resp = call("ApplyMove", api.ApplyMoveRequest(snapshot=snapshot, move=move), host)
        snapshot = resp.snapshot
        if seen == {"run", "set"}:
            return
    raise AssertionError(f"may_i seed 5: saw only {sorted(seen)} melds (pick another seed)")
