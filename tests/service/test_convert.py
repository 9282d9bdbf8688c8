"""Moves and events between the engine and the messages, checked along random games."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from engine import Phase, apply, legal_moves, new_game, next_deal, parse_card, parse_move
from engine import events as engine_events
from engine.bots import greedy_move
from engine.cards import CODES
from engine.errors import BadMove
from engine.games import game_of
from engine.moves import MOVE_KINDS, AddToMeld, GoOut, Move, TakePile
from engine.variants import catalogue, table_facts
from engine.views import seat_view
from service.api import convert
from service.api.errors import ServiceError
from service.api.pb import game
from service.sealing.snapshot import Header


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_legal_move_round_trips(players: int) -> None:
    rng = random.Random(players)
    state = new_game("classic", players, seed=players)
    seen: set[str] = set()
    for _ in range(400):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        moves = legal_moves(state)
        for move in moves:
            msg = convert.move_to_pb(move)
            kind = msg.WhichOneof("kind")
            assert kind is not None, move
            seen.add(kind)
            assert convert.move_from_pb(msg) == move
            assert convert.move_from_pb(game.Move(text=msg.text)) == move
            typed = game.Move()
            typed.CopyFrom(msg)
            typed.ClearField("text")
            assert convert.move_from_pb(typed) == move
            back = json_format.Parse(json_format.MessageToJson(msg), game.Move())
            assert back == msg
        state = apply(state, rng.choice([m for m in moves if str(m) != "undo"]))
    assert {"draw", "discard", "meld"} <= seen


# The typed arm of each engine move kind (engine.moves.MOVE_KINDS).
ARMS = {"draw": "draw", "take": "take_pile", "meld": "meld", "add": "add_to_meld",
        "merge": "merge", "discard": "discard", "out": "go_out", "ask": "ask",
        "answer": "answer", "undo": "undo", "decline": "decline", "end": "end_hand",
        "buy": "buy", "pass": "pass_buy", "down": "go_down", "layoff": "lay_off"}


def test_every_engine_move_kind_has_an_arm() -> None:
    assert set(ARMS) == set(MOVE_KINDS.values())
    assert set(ARMS.values()) == {f.name for f in game.Move.DESCRIPTOR.oneofs_by_name["kind"].fields}


def test_an_unlabelled_sequence_addition_is_not_canonical() -> None:
    """engine.play.canonicalize labels an addition named by a rank code alone; such a
    move has no readable text either, so it is no answer's move."""
    with pytest.raises(ValueError):
        convert.move_to_pb(AddToMeld(15, (parse_card("4H"),)))


def _form(move: Move) -> str:
    """The engine kind of a move, told apart by how it names a meld."""
    kind = MOVE_KINDS[type(move)]
    if isinstance(move, AddToMeld) and move.label:
        label = move.label
        return kind + (":wild" if label.startswith("W") else ":sequence" if ":" in label
                       else ":ordinal")
    if isinstance(move, TakePile) and move.target:
        return kind + ":target"
    return kind


def _check_round_trip(move: Move) -> str:
    """Typed, text, typed alone and JSON all give the move back; returns the arm."""
    msg = convert.move_to_pb(move)
    kind = msg.WhichOneof("kind")
    assert kind == ARMS[MOVE_KINDS[type(move)]], (move, kind)
    assert msg.text == str(move)
    assert convert.move_from_pb(msg) == move
    assert convert.move_from_pb(game.Move(text=msg.text)) == move
    typed = game.Move()
    typed.CopyFrom(msg)
    typed.ClearField("text")
    assert convert.move_from_pb(typed) == move, (move, typed)
    back = json_format.Parse(json_format.MessageToJson(typed), game.Move())
    assert convert.move_from_pb(back) == move
    return kind


# Forms each game's playouts must meet, so the round trip covers its labelled moves.
FAMILY_FORMS = {"add:sequence", "take:target", "merge", "meld", "add", "take", "discard", "draw"}
EXPECTED_FORMS = {
    "samba": FAMILY_FORMS | {"add:ordinal", "out"},
    "bolivia": FAMILY_FORMS | {"add:wild", "add:ordinal", "decline"},
    "bolivia_sevens": FAMILY_FORMS | {"add:wild", "add:ordinal"},
    "may_i": {"draw", "take", "discard", "buy", "pass", "down", "layoff"},
}


@pytest.mark.parametrize(("variant", "players"), [("samba", 4), ("bolivia", 4),
                                                  ("bolivia_sevens", 4), ("may_i", 3),
                                                  ("may_i", 4)])
def test_every_move_of_every_game_round_trips_typed(variant: str, players: int) -> None:
    """Every legal move along seeded playouts (half greedy, half random, across deals)
    has its typed arm, and the typed form alone gives the engine move back."""
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(variant, players, seed=seed)
        for _ in range(400):
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.HAND_OVER:
                state = next_deal(state)
                continue
            moves = legal_moves(state)
            for move in moves:
                _check_round_trip(move)
                seen.add(_form(move))
            playable = [m for m in moves if str(m) != "undo"] or moves
            state = apply(state, greedy_move(state, rng) if rng.random() < 0.5
                          else rng.choice(playable))
    missing = EXPECTED_FORMS[variant] - seen
    assert not missing, f"{variant}: the playouts never listed {sorted(missing)}"


@pytest.mark.parametrize(("text", "typed"), [
    ("add S:5-9 4S TS", {"addToMeld": {"cards": ["4S", "TS"], "label": "S:5-9"}}),
    ("add K#2 KC", {"addToMeld": {"rank": "K", "cards": ["KC"], "label": "K#2"}}),
    ("add W 2D JK", {"addToMeld": {"cards": ["2D", "JK"], "label": "W"}}),
    ("add K KC JK", {"addToMeld": {"rank": "K", "cards": ["KC", "JK"]}}),
    ("take on S:5-9", {"takePile": {"target": "S:5-9"}}),
    ("take 9S 9C on 9#2", {"takePile": {"cards": ["9S", "9C"], "target": "9#2"}}),
    ("take 9S 9C", {"takePile": {"cards": ["9S", "9C"]}}),
    ("merge K K#2", {"merge": {"first": "K", "second": "K#2"}}),
    ("buy", {"buy": {}}),
    ("pass", {"passBuy": {}}),
    ("down 7S 7H 7D / KS KD KC", {"goDown": {"groups": [{"cards": ["7S", "7H", "7D"]},
                                                        {"cards": ["KS", "KD", "KC"]}]}}),
    ("layoff 2:1 9D", {"layOff": {"seat": 2, "meld": 1, "card": "9D"}}),
])
def test_typed_json_of_each_new_form(text: str, typed: dict[str, object]) -> None:
    """The JSON of docs/api.md's move table: the answer's typed form, and the same
    typed form alone in a request is the move of the text."""
    move = parse_move(text)
    msg = convert.move_to_pb(move)
    assert msg.text == text
    alone = json_format.ParseDict(typed, game.Move())
    assert convert.move_from_pb(alone) == move
    assert json_format.MessageToDict(msg) == {"text": text, **typed}


@pytest.mark.parametrize(("typed", "text"), [
    ({"addToMeld": {"rank": "k", "cards": ["KC"], "label": "k#2"}}, "add K#2 KC"),
    ({"addToMeld": {"cards": ["KC"], "label": "K#1"}}, "add K KC"),  # the first K group
    ({"addToMeld": {"cards": ["TS", "4S"], "label": "s:5-9"}}, "add S:5-9 4S TS"),
    # a sequence's cards are in card order, wild ones too (the engine then refuses them)
    ({"addToMeld": {"cards": ["4S", "2C"], "label": "S:5-9"}}, "add S:5-9 2C 4S"),
    ({"takePile": {"target": "9#1"}}, "take on 9"),
    ({"takePile": {"cards": ["9C", "9S"]}}, "take 9S 9C"),
    # a blank label or target is none (as an empty one)
    ({"takePile": {"cards": ["9S", "9C"], "target": " "}}, "take 9S 9C"),
    ({"addToMeld": {"rank": "K", "cards": ["KC"], "label": "  "}}, "add K KC"),
    ({"merge": {"first": "s:4-6", "second": "S:7-9"}}, "merge S:4-6 S:7-9"),
    ({"goDown": {"groups": [{"cards": ["KC", "KS", "KD"]}, {"cards": ["7D", "7S", "7H"]}]}},
     "down 7S 7H 7D / KS KD KC"),
])
def test_typed_requests_are_canonicalised_like_text(typed: dict[str, object], text: str) -> None:
    move = convert.move_from_pb(json_format.ParseDict(typed, game.Move()))
    assert move == parse_move(text) and str(move) == text


def test_typed_forms_of_special_moves() -> None:
    take = parse_move("take 9S 9C / KH KD 2C")
    assert isinstance(take, TakePile)
    msg = convert.move_to_pb(take)
    assert [list(g.cards) for g in msg.take_pile.extras] == [["KH", "KD", "2C"]]
    assert convert.move_from_pb(msg) == take
    out = convert.move_to_pb(GoOut())
    assert out.WhichOneof("kind") == "go_out" and not out.go_out.HasField("card")
    assert convert.move_from_pb(game.Move(go_out=game.Move.GoOut())) == GoOut()
    assert convert.move_from_pb(game.Move(answer=game.Move.Answer(yes=False))) == parse_move("no")
    add = game.Move(add_to_meld=game.Move.AddToMeld(rank="k", cards=["2c", "KS"]))
    assert str(convert.move_from_pb(add)) == "add K KS 2C"


@pytest.mark.parametrize("rank", "23456789TJQKA")
def test_an_addition_to_a_group_of_each_rank_round_trips(rank: str) -> None:
    """An addition to a group names its rank, from 2 (rank code 0, a falsy one; a group of
    deuces where a variant allows one) to A, and no label."""
    move = parse_move(f"add {rank} {rank}S")
    assert _check_round_trip(move) == "add_to_meld"
    msg = convert.move_to_pb(move)
    assert (msg.add_to_meld.rank, msg.add_to_meld.label) == (rank, "")


def test_every_card_round_trips_in_each_move_that_names_one() -> None:
    """Card code 0 (2S) is a card like any other: a go-out or discard naming it keeps it in
    its typed form (a falsy code is not a missing card)."""
    for code in range(len(CODES)):
        for text in (f"out {CODES[code]}", f"discard {CODES[code]}"):
            move = parse_move(text)
            msg = convert.move_to_pb(move)
            assert CODES[code] in (msg.go_out.card, msg.discard.card), text
            assert _check_round_trip(move) in ("go_out", "discard")


@pytest.mark.parametrize("move", [
    game.Move(meld=game.Move.MeldCards()),
    game.Move(meld=game.Move.MeldCards(groups=[game.CardGroup()])),
    game.Move(add_to_meld=game.Move.AddToMeld(rank="K")),
    game.Move(add_to_meld=game.Move.AddToMeld(label="S:5-9")),
    game.Move(add_to_meld=game.Move.AddToMeld(rank="Q", label="K#2", cards=["KC"])),
    game.Move(add_to_meld=game.Move.AddToMeld(rank="5", label="S:5-9", cards=["4S"])),
    game.Move(merge=game.Move.Merge(first="K")),
    game.Move(merge=game.Move.Merge(second="K#2")),
    game.Move(go_down=game.Move.GoDown()),
    game.Move(go_down=game.Move.GoDown(groups=[game.CardGroup(cards=["7S", "7H", "7D"]),
                                               game.CardGroup()])),
    game.Move(lay_off=game.Move.LayOff(seat=-1, card="9D")),
    game.Move(lay_off=game.Move.LayOff(seat=1, meld=-2, card="9D")),
    game.Move(text="draw", discard=game.Move.Discard(card="4S")),
    # typed and text of labelled moves must agree too
    game.Move(text="add K#2 KC", add_to_meld=game.Move.AddToMeld(rank="K", cards=["KC"])),
    game.Move(text="take 9S 9C on 9#2", take_pile=game.Move.TakePile(cards=["9S", "9C"])),
    game.Move(text="merge K K#2", merge=game.Move.Merge(first="K#2", second="K")),
    game.Move(text="pass", buy=game.Move.Buy()),
    game.Move(text="layoff 2:1 9D", lay_off=game.Move.LayOff(seat=1, meld=2, card="9D")),
    game.Move(),
    game.Move(text="  "),  # blank text is no move either
])
def test_malformed_typed_moves(move: game.Move) -> None:
    with pytest.raises(ServiceError) as err:
        convert.move_from_pb(move)
    assert err.value.reason == "REQUEST_INVALID"


def test_bad_cards_are_engine_errors() -> None:
    with pytest.raises(BadMove):
        convert.move_from_pb(game.Move(add_to_meld=game.Move.AddToMeld(rank="Z", cards=["KS"])))
    with pytest.raises(BadMove):
        convert.move_from_pb(game.Move(take_pile=game.Move.TakePile(cards=["KS", "XX"])))
    with pytest.raises(BadMove):
        convert.move_from_pb(game.Move(lay_off=game.Move.LayOff(seat=1, card="XX")))
    with pytest.raises(BadMove):  # a card set, if empty, is not going out without a discard
        convert.move_from_pb(game.Move(go_out=game.Move.GoOut(card="")))


@pytest.mark.parametrize("move", [
    game.Move(add_to_meld=game.Move.AddToMeld(label="S:9-5", cards=["4S"])),
    game.Move(add_to_meld=game.Move.AddToMeld(label="K#0", cards=["KC"])),
    game.Move(take_pile=game.Move.TakePile(target="X:1-2")),
    game.Move(merge=game.Move.Merge(first="K", second="KK")),
])
def test_bad_labels_are_engine_errors(move: game.Move) -> None:
    """A label that cannot be read is the text form's BAD_MOVE_SYNTAX."""
    with pytest.raises(BadMove) as err:
        convert.move_from_pb(move)
    assert err.value.reason.value == "BAD_MOVE_SYNTAX"


@pytest.mark.parametrize("seed", range(6))
def test_events_tell_what_changed(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game("classic", 4, seed=seed)
    for _ in range(300):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        move = rng.choice([m for m in legal_moves(state) if str(m) != "undo"])
        seat = state.awaited
        nxt = apply(state, move)
        events = convert.move_events(state, move, seat, nxt)
        kinds = [e.type for e in events]
        assert events[0].type == game.EVENT_TYPE_MOVE_PLAYED and events[0].move == str(move)
        drawn = sum(e.count for e in events if e.type == game.EVENT_TYPE_CARDS_DRAWN)
        assert drawn == len(state.stock) - len(nxt.stock)
        laid = sum(len(e.cards) for e in events if e.type == game.EVENT_TYPE_RED_THREES_LAID)
        assert laid == sum(len(r) for r in nxt.red3) - sum(len(r) for r in state.red3)
        assert (game.EVENT_TYPE_PILE_TAKEN in kinds) == isinstance(move, TakePile)
        started = [e.seat for e in events if e.type == game.EVENT_TYPE_TURN_STARTED]
        changed = nxt.turn.seat != state.turn.seat and nxt.awaited >= 0
        assert started == ([nxt.turn.seat] if changed else [])
        assert (game.EVENT_TYPE_HAND_OVER in kinds) == (nxt.phase in (Phase.HAND_OVER,
                                                                      Phase.GAME_OVER))
        state = nxt


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("classic", 4, {}), ("samba", 4, {}), ("may_i", 4, {}),
    ("may_i", 5, {"buy_priority": "first_call"})])
def test_drawn_cards_are_told_to_the_drawer_alone(variant: str, players: int,
                                                  options: dict[str, str]) -> None:
    """Each seat that got stock cards in a move has a CARDS_DRAWN event naming them (a May
    I? buy: the buyer's penalty card and the turn player's draw); the host reads every
    one's cards, a seat only its own, a spectator none (so too a Canasta PILE_TAKEN's; a
    May I? one's every role); the events are otherwise equal."""
    rng = random.Random(variant + str(players))
    state = new_game(variant, players, seed=5, options=options)
    drew_twice = 0
    for _ in range(600):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        move = rng.choice([m for m in legal_moves(state) if str(m) != "undo"])
        seat = state.awaited
        nxt = apply(state, move)
        host = convert.move_events(state, move, seat, nxt)
        drawn = {e.seat: sorted(e.cards) for e in host if e.type == game.EVENT_TYPE_CARDS_DRAWN}
        taken = Counter(state.pile) - Counter(nxt.pile) if str(move).startswith(
            ("take", "buy")) else Counter()
        reds = game_of(state).red_threes
        for s in range(players):
            got = (Counter(nxt.hands[s]) + Counter(reds(nxt)[s])
                   - Counter(state.hands[s]) - Counter(reds(state)[s]))
            if s == seat:
                got -= taken
            assert drawn.get(s, []) == sorted(CODES[c] for c in got.elements()), (move, s)
        drew_twice += len(drawn) > 1
        assert sum(len(c) for c in drawn.values()) == len(state.stock) - len(nxt.stock) or \
            len(nxt.stock) > len(state.stock)  # a May I? reshuffle refills the stock
        for viewer in (-1, *range(players)):
            seen = convert.move_events(state, move, seat, nxt, viewer)
            assert [(e.type, e.seat, e.count) for e in seen] == [
                (e.type, e.seat, e.count) for e in host]
            for e, h in zip(seen, host, strict=True):
                # a May I? take's card is the pile's top, public (engine/events.py)
                private = e.type == game.EVENT_TYPE_CARDS_DRAWN or (
                    e.type == game.EVENT_TYPE_PILE_TAKEN and variant != "may_i")
                assert list(e.cards) == (list(h.cards) if not private or e.seat == viewer
                                         else [])
        state = nxt
    if variant == "may_i":
        assert drew_twice, "no May I? buy in this hand (pick another seed)"


def _agrees(msg: Message, obj: Any, special: dict[str, Any] | None = None) -> None:
    """Every field of ``msg`` holds the engine value of the same name (``special``: the
    expected value of a field named otherwise); nested messages field by field."""
    for f in msg.DESCRIPTOR.fields:
        got = getattr(msg, f.name)
        want: Any = (special or {})[f.name] if f.name in (special or {}) else getattr(
            obj, f.name)
        if f.message_type is None:
            assert (list(got) if f.is_repeated else got) == (
                list(want) if f.is_repeated else want), f.name
        elif f.is_repeated:
            assert len(got) == len(want), f.name
            for g, w in zip(got, want, strict=True):
                _agrees(g, w)
        else:
            _agrees(got, want)


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("classic", 3),
                                                  ("samba", 4), ("may_i", 4)])
def test_a_view_message_holds_every_field_of_the_engine_view(variant: str,
                                                             players: int) -> None:
    """view_pb copies each field of the engine's seat view, its sides, melds and, once a
    hand is over, each side's score with its breakdown (CL-SCORE-8): no field left at its
    default, none taken from another. The playouts (greedy and random, over two hands)
    reach views where each such field is set."""
    rng = random.Random(variant)
    state = new_game(variant, players, seed=2)
    teams = state.rules.layout.teams
    seen: set[str] = set()
    for _ in range(1500):
        for seat in range(players):
            v = seat_view(state, seat)
            msg = convert.view_pb(v, teams, game.SeatView())
            _agrees(msg, v, {
                "legal_moves_total": len(v.legal_moves),
                "result": [SimpleNamespace(team=r.team, seats=teams[r.team], total=r.total,
                                           cumulative=r.cumulative, breakdown=r)
                           for r in v.result],
                "seat_red_threes": [SimpleNamespace(cards=c) for c in v.seat_red_threes],
                "may_i": SimpleNamespace(sets=v.contract[0], sequences=v.contract[1],
                                         buys_left=v.buys_left)})
            seen.update(f.name for f, _ in msg.ListFields())
            seen.update(f"sides.{f.name}" for side in msg.sides for f, _ in side.ListFields())
        if state.phase is Phase.GAME_OVER or state.hand_no == 2:
            break
        if state.phase is Phase.HAND_OVER:
            state = next_deal(state)
            continue
        moves = [m for m in legal_moves(state) if str(m) != "undo"] or legal_moves(state)
        state = apply(state, greedy_move(state, rng) if rng.random() < 0.7 else rng.choice(moves))
    assert {"hand_no", "result", "sides.score", "winner" if variant == "may_i" else "hand"} <= seen


def test_a_variant_message_holds_the_catalogue() -> None:
    """ListVariants: each variant's names (Russian where it has one), its options as the
    engine specifies them and one table per player count, field by field."""
    seen: set[str] = set()
    for info in catalogue():
        en = convert.variant_pb(info, "en", game.Variant())
        ru = convert.variant_pb(info, "ru", game.Variant())
        assert (en.id, en.name, en.min_players, en.max_players) == (
            info.id, info.name, info.min_players, info.max_players)
        assert ru.name == (info.name_ru or info.name)
        for msg, spec in zip(en.options, info.options, strict=True):
            default = spec.default
            _agrees(msg, spec, {
                "type": {bool: game.OPTION_TYPE_BOOL, int: game.OPTION_TYPE_INT}.get(
                    spec.kind, game.OPTION_TYPE_CHOICE),
                "default_value": "" if default is None else (
                    str(default).lower() if isinstance(default, bool) else str(default)),
                "description": spec.doc,
                "maximum": spec.maximum if spec.kind is int else 0})
            seen.update(f"option.{f.name}" for f, _ in msg.ListFields())
        players = range(info.min_players, info.max_players + 1)
        assert [t.players for t in en.tables] == list(players)
        for table, p in zip(en.tables, players, strict=True):
            facts = table_facts(info.id, p)
            _agrees(table, facts, {
                "seats_in_play": [SimpleNamespace(seats=s) for s in facts.seats_in_play],
                "sides": [SimpleNamespace(seats=s) for s in facts.sides]})
            seen.update(f"table.{f.name}" for f, _ in table.ListFields())
        seen.update({"ru"} if info.name_ru and ru.name != en.name else set())
    assert {"ru", "option.type", "option.default_value", "option.choices", "option.maximum",
            "option.minimum", "option.aliases", "table.wild_limit", "table.jokers",
            "table.canastas_to_go_out"} <= seen


def test_a_header_message_holds_the_snapshots_header() -> None:
    """GetView/ImportPosition's header: every field of the sealed header, the game id as
    its UUID text."""
    for imported, stacked in ((False, False), (True, False), (False, True)):
        h = Header(format_version=3, key_id="k2", variant="samba",
                   game_id=bytes(range(16)), seq=41, imported=imported, stacked=stacked)
        msg = convert.header_pb(h, game.SnapshotHeader())
        assert (msg.format_version, msg.key_id, msg.variant, msg.game_id, msg.seq,
                msg.imported, msg.stacked) == (3, "k2", "samba", h.game_uuid, 41, imported,
                                               stacked)


@pytest.mark.parametrize("seed", range(3))
def test_an_event_message_holds_each_engine_events_fields(seed: int) -> None:
    """Each event's kind, seat, move, count and team (-1 but in GAME_OVER, the winner) as
    the engine tells them, to the game's end (a low target ends it in one hand)."""
    rng = random.Random(seed)
    state = new_game("classic", 4, seed=seed, options={"target_score": 150})
    teams = set()
    while state.phase is not Phase.GAME_OVER:
        move = greedy_move(state, rng)
        seat = state.awaited
        nxt = apply(state, move)
        events = engine_events.move_events(state, move, seat, nxt)
        for e, msg in zip(events, convert.events_pb(events), strict=True):
            assert (msg.type, msg.seat, msg.move, msg.count, msg.team) == (
                game.EventType.Value(f"EVENT_TYPE_{e.kind.name}"), e.seat, e.move, e.count,
                e.team)
            teams.add(e.team)
        state = nxt
    assert len(teams) > 1
