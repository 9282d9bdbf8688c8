"""Position notation: a whole state as text, the way FEN serves chess.

See ``docs/notation.md``. One ``key: value`` per line; cards are codes, the
stock and the pile are written bottom to top. ``export_position`` followed by
``import_position`` gives back an equal state, and exporting again gives the
same text. For hand-written positions a zone may be ``*N`` (N cards from the
cards not placed elsewhere) or ``*`` (all of them), filled in line order from
the unplaced cards shuffled by the position's seed. The lines every position has
and their reader are :mod:`engine.notation_lines`; this module holds the Canasta
family's own fields, and dispatches a May I? position to :mod:`engine.mayi.notation`.
"""

from __future__ import annotations

from collections import Counter

from engine.cards import (
    IS_RED_THREE,
    RANK,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    parse_cards,
    rank_of_char,
)
from engine.deck import composition
from engine.errors import BadInput, Reason
from engine.game import rules_for
from engine.games import game_of
from engine.mayi import notation as mayi_notation
from engine.mayi.state import AnyState
from engine.melds import SEQ_RANK, WILD_RANK, base_label, is_sequence, meld_rank, parse_label
from engine.moves import AddToMeld, Meld, Merge, Move, parse_move
from engine.notation_lines import (
    Reader,
    cards_text,
    check_over,
    fill_zones,
    flags_text,
    head_lines,
    ints_text,
    named,
    option_text,
    read_position,
    zone_lines,
)
from engine.numerals import unsigned
from engine.options import OptionSpec
from engine.rules import RuleSet
from engine.scoring import hand_result
from engine.state import (
    ASK_PHASES,
    CANASTA_PHASES,
    MeldPile,
    Phase,
    State,
    Turn,
    evolve,
    partner_of,
)
from engine.transitions import apply_stage, make_meld
from engine.variants import variant_module

HEADER = "canasta-position 1"
# the values of the turn's lines, as play writes them (docs/notation.md, *The lines*)
ASKED = {"0": False, "1": True}
ANSWERS = {"-": "", "yes": "yes", "no": "no"}
DREW = {"-": "", "stock": "stock", "pile": "pile"}


def _melds(melds: tuple[MeldPile, ...]) -> str:
    return " | ".join(f"{base_label(m)}@{m.owner}: {cards_text(m.cards)}" for m in melds) or "-"


def _code(rank: int) -> str:
    """A rank code in the ``created`` line: a rank, ``W`` (wild meld), ``~S`` (sequence)."""
    if rank >= SEQ_RANK:
        return "~" + SUIT_CHARS[rank - SEQ_RANK]
    return "W" if rank == WILD_RANK else RANK_CHARS[rank]


def _read_code(text: str) -> int:
    if len(text) == 2 and text[0] == "~" and text[1].upper() in SUIT_CHARS:
        return SEQ_RANK + SUIT_CHARS.index(text[1].upper())
    return WILD_RANK if text.upper() == "W" else rank_of_char(text)


def export_position(state: AnyState) -> str:
    """The position as text (see the module docstring)."""
    text: str = game_of(state).export_position(state)
    return text


def canasta_export_position(state: State) -> str:
    """:func:`export_position` of a Canasta-family state."""
    rules = state.rules
    defaults = {s.name: s.default for s in _specs(rules)}
    given = {k: v for k, v in rules.options
             if defaults.get(k) is not None and defaults.get(k) != v}
    # options whose default is derived from the table (target, canastas): written
    # when they differ from what the table alone would give
    derived = dict(rules_for(rules.variant, rules.players, given).options)
    given.update({k: v for k, v in rules.options
                  if k in defaults and defaults[k] is None and derived.get(k) != v})
    opts = ",".join(f"{k}={option_text(v)}" for k, v in sorted(given.items())) or "-"
    t = state.turn
    lines = [
        *head_lines(HEADER, state, opts),
        f"asked: {'1' if t.asked else '0'} {t.answer or '-'} {t.asked_in.value}",
        f"created: {' '.join(_code(r) for r in t.created) or '-'}",
        f"flags: {'1' if t.laid_off_on_partner else '0'} {'1' if t.no_discard else '0'}"
        + (" 1" if t.last_chance else ""),
        *zone_lines(state),
    ]
    for team, melds in enumerate(state.melds):
        lines.append(f"melds{team}: {_melds(melds)}")
    for seat, reds in enumerate(state.red3):
        lines.append(f"red3_{seat}: {cards_text(reds)}")
    lines += [
        f"opened: {flags_text(state.opened)}",
        f"melded: {flags_text(state.melded)}",
        f"pending_red3: {flags_text(state.pending_red3)}",
        f"asks: {ints_text(state.asks)}",
        f"penalties: {ints_text(state.penalties)}",
    ]
    if state.side_of != rules.layout.seat_team:
        lines.append(f"sides: {ints_text(state.side_of)}")
    if state.lone >= 0:
        lines.append(f"lone: {state.lone}")
    if state.upcards:
        lines.append(f"upcards: {cards_text(state.upcards)}")
    if t.staged:
        lines.append("staged: " + " | ".join(str(m) for m in t.staged))
        lines.append(f"base_hand: {cards_text(t.base_hand)}")
        lines.append(f"base_melds: {_melds(t.base_melds)}")
    if state.result is not None:
        lines.append(f"result: {state.result.went_out} {'1' if state.result.concealed else '0'}")
    return "\n".join(lines) + "\n"


def _specs(rules: RuleSet) -> tuple[OptionSpec, ...]:
    return variant_module(rules.variant).OPTIONS


def _parse_melds(rules: RuleSet, text: str) -> tuple[MeldPile, ...]:
    if text.strip() in ("", "-"):
        return ()
    melds = []
    for part in text.split("|"):
        head, sep, cards = part.rpartition(":")
        label, _, owner = head.strip().partition("@")
        seat = unsigned(owner.strip()) if sep else None  # as written: "0", never "00" or "+0"
        if seat is None:
            raise BadInput(Reason.BAD_NOTATION, f"a meld is 'RANK@SEAT: cards', not {part!r}")
        if not cards.strip():  # play never empties a meld, and '-' is no card
            raise BadInput(Reason.BAD_NOTATION, f"the meld {head.strip()!r} holds no card")
        meld = make_meld(rules, parse_label(label)[0], parse_cards(cards), seat)
        if base_label(meld) != label.strip().upper() or not _makes(rules, meld):
            raise BadInput(Reason.BAD_NOTATION, f"the cards do not make the meld {label!r}")
        melds.append(meld)
    return tuple(sorted(melds, key=lambda m: m.rank))  # stable: keeps a side's order


def _makes(rules: RuleSet, meld: MeldPile) -> bool:
    """Whether a meld's cards make a meld of its rank code, of a kind its game has: a
    group's natural cards are all of its rank (``3``: black threes, CL-R3-1); a meld of
    wild cards alone only where the game has them (BO-WILD-2); a sequence only where
    suits run (SA-SEQ-1): naturals of one suit, consecutive, with no wild card."""
    rank = meld.rank
    if meld_rank(rules, meld.cards) != rank:  # the kind and rank its cards give
        return False
    if rank == WILD_RANK:
        return rules.wild_melds
    if rank >= SEQ_RANK:
        return is_sequence(meld.cards)
    wild = rules.wild
    return all(wild[c] or (RANK[c] == rank and not IS_RED_THREE[c]) for c in meld.cards)


def import_position(text: str) -> AnyState:
    """Read a position.

    :raises BadInput: ``BAD_NOTATION`` (or an option/variant error) for any
        malformed or inconsistent text, including cards that are not exactly
        the game's deck.
    """
    if mayi_notation.is_mayi_position(text):  # May I? is its own game: engine/mayi
        return mayi_notation.import_position(text)
    return read_position(_import, text)


def _import(text: str) -> State:
    r = Reader(text, HEADER)
    players = r.one("players")
    opts_text = r.get("options", "-")
    options = {} if opts_text == "-" else dict(
        kv.split("=", 1) for kv in opts_text.split(",") if kv.strip())
    rules = rules_for(r.get("variant", "classic"), players, {k.strip(): v.strip()
                                                              for k, v in options.items()})
    if not isinstance(rules, RuleSet):  # a May I? variant in a Canasta position
        raise BadInput(Reason.BAD_NOTATION, "a May I? position needs the May I? notation")
    n = rules.players
    teams = len(rules.layout.teams)
    seed = r.one("seed", "0")
    hand_no = r.one("hand", "0")
    active = rules.active_seats(hand_no)
    dealer = r.one("dealer", str(active[-1]))
    if dealer not in active:
        raise BadInput(Reason.BAD_NOTATION, f"seat {dealer} is not playing this hand")
    i = active.index(dealer)
    order = active[i + 1:] + active[: i + 1]
    zones = {"stock": r.zone("stock"), "pile": r.zone("pile")}
    for seat in range(n):
        zones[f"hand{seat}"] = r.zone(f"hand{seat}")
        zones[f"red3_{seat}"] = r.zone(f"red3_{seat}")
    melds = tuple(_parse_melds(rules, r.get(f"melds{t}", "-")) for t in range(teams))
    pending_red3 = r.flags("pending_red3", n)
    # a fill deals no red three to a seat that has begun a turn: it laid them (CL-R3-1)
    barred = {f"hand{s}": IS_RED_THREE.__getitem__ for s in range(n) if not pending_red3[s]}
    cards = fill_zones(composition(rules), seed, zones, (m.cards for side in melds for m in side),
                       [k for k in r.order if k in zones], barred)
    phase = named(r.get("phase", "draw"), CANASTA_PHASES, "phase")
    turn_seat = r.one("turn", str(order[0]))
    asked = r.get("asked", "0 - draw").split()
    if len(asked) != 3:
        raise BadInput(Reason.BAD_NOTATION, "line 'asked' needs 3 values")
    flags = r.flags("flags", 3) if len(r.get("flags", "0 0").split()) == 3 else (
        r.flags("flags", 2) + (False,))
    drew = r.get("drew", "-")
    created = r.get("created", "-")
    hands = tuple(tuple(sorted(cards[f"hand{s}"])) for s in range(n))
    turn = Turn(
        seat=turn_seat, drew=named(drew, DREW, "drew"), asked=named(asked[0], ASKED, "asked"),
        answer=named(asked[1], ANSWERS, "the answer"),
        asked_in=named(asked[2], ASK_PHASES, "asked in phase"),
        created=() if created == "-" else tuple(_read_code(c) for c in created.split()),
        laid_off_on_partner=flags[0], no_discard=flags[1], last_chance=flags[2],
    )
    state = State(
        rules=rules, seed=seed, hand_no=hand_no, dealer=dealer, scores=r.ints("scores", teams,
                                                                              "0 " * teams),
        order=order, stock=cards["stock"], pile=cards["pile"], hands=hands, melds=melds,
        red3=tuple(cards[f"red3_{s}"] for s in range(n)),
        opened=r.flags("opened", teams), melded=r.flags("melded", n),
        pending_red3=pending_red3, asks=r.ints("asks", n, "0 " * n),
        penalties=r.ints("penalties", teams, "0 " * teams), phase=phase, turn=turn,
        ply=r.one("ply", "0"),
        side_of=r.ints("sides", n, ints_text(rules.layout.seat_team)),
        lone=r.one("lone", "-1"),
        upcards=_upcards(rules, r.get("upcards", "-")),
    )
    state = _staged(rules, r, state)
    _check(state)
    _check_take(state)
    if "result" in r.fields:
        went_out, concealed = r.ints("result", 2)
        _check_result(state, went_out, concealed)
        state = evolve(state, result=hand_result(state, went_out, bool(concealed)))
    _check_phase(state)
    if state.result is not None and state.result.went_out >= 0 \
            and state.hands[state.result.went_out]:  # CL-OUT-1
        raise BadInput(Reason.BAD_NOTATION, "the seat that went out holds no card")
    return state


def _check_result(state: State, went_out: int, concealed: int) -> None:
    """The result line's values as play writes them (CL-TURN-4): a seat went out, or
    nobody did (-1, the stock ran out); and only a seat that went out went out concealed
    (CL-OUT-10). That seat holds no card (CL-OUT-1), checked once the phase is."""
    n = state.rules.players
    if not -1 <= went_out < n:
        raise BadInput(Reason.BAD_NOTATION,
                       f"the seat that went out is -1 (nobody) or 0 to {n - 1}, not {went_out}")
    if concealed not in (0, 1) or (concealed and went_out < 0):
        raise BadInput(Reason.BAD_NOTATION,
                       "the result's concealed flag is 0, or 1 for a seat that went out")


def _check_take(state: State) -> None:
    """The turn's take as play leaves it: only taking the pile creates melds this turn,
    lays off on a partner's meld or takes the last chance (``created`` and ``flags``,
    CL-PILE-8), and each created rank names a meld of the taker's side, of a kind the
    game has (no ``~S`` where suits do not run, no ``W`` where wild cards do not meld
    alone)."""
    t = state.turn
    if (t.created or t.laid_off_on_partner or t.last_chance) and t.drew != "pile":
        raise BadInput(Reason.BAD_NOTATION, "'created' and the take's flags come only with "
                                            "'drew: pile': the take of the pile sets them")
    ranks = {m.rank for m in state.melds[state.team_of(t.seat)]}
    for rank in t.created:
        if rank not in ranks:
            raise BadInput(Reason.BAD_NOTATION, f"created: {_code(rank)} names no meld of "
                                                f"seat {t.seat}'s side")


def _check_phase(state: State) -> None:
    """The phase agrees with the turn and the result, as play leaves them: a seat asks
    only a partner, where the rules let it ask (CL-P2-5), who is waited for and answers
    only after the ask (CL-OUT-4); the meld phase comes after the turn's draw and the
    draw phases before it (CL-TURN-1); a hand is over exactly when it has a result, the
    game exactly when that result decides it (:func:`check_over`)."""
    t = state.turn
    phase = state.phase
    if t.asked and (not state.rules.permission or partner_of(state, t.seat) < 0):
        raise BadInput(Reason.BAD_NOTATION, f"seat {t.seat} has nobody to ask (CL-P2-5)")
    if (phase is Phase.PERMISSION) != (t.asked and not t.answer) or (t.answer and not t.asked):
        raise BadInput(Reason.BAD_NOTATION,
                       "the permission phase is exactly the wait for an asked partner's answer")
    turn_phase = t.asked_in if phase is Phase.PERMISSION else phase
    if turn_phase is Phase.MELD and not t.drew:
        raise BadInput(Reason.BAD_NOTATION, "the meld phase comes after a draw: name it in 'drew'")
    if turn_phase in (Phase.DRAW, Phase.DRAW_EXHAUSTED) and t.drew:
        raise BadInput(Reason.BAD_NOTATION, f"the {turn_phase.value} phase comes before the draw")
    result = state.result
    check_over(phase, result, result is not None and (result.winner >= 0 or result.draw))


def _upcards(rules: RuleSet, text: str) -> tuple[Card, ...]:
    """The cards turned up at the deal: a record of the table (they may be anywhere now),
    each a card of the game."""
    cards = () if text == "-" else parse_cards(text)
    if any(c not in composition(rules) for c in cards):
        raise BadInput(Reason.BAD_NOTATION, "an upcard that is not a card of the game")
    return cards


def _staged(rules: RuleSet, r: Reader, state: State) -> State:
    if "staged" not in r.fields:
        return state
    moves: list[Move] = [parse_move(m) for m in r.get("staged").split("|")]
    if any(not isinstance(m, (Meld, AddToMeld, Merge)) for m in moves):
        raise BadInput(Reason.BAD_NOTATION, "only meld, add and merge moves can be staged")
    base_hand = tuple(sorted(parse_cards(r.get("base_hand"))))
    base_melds = _parse_melds(rules, r.get("base_melds"))
    seat = state.turn.seat
    hand, melds = base_hand, base_melds
    for m in moves:
        try:
            hand, melds = apply_stage(rules, seat, hand, melds, m)
        except AssertionError:
            raise BadInput(Reason.BAD_NOTATION, f"staged move {m} does not apply") from None
    team = state.team_of(seat)
    if hand != state.hands[seat] or melds != state.melds[team]:
        raise BadInput(Reason.BAD_NOTATION, "the staged moves do not lead from the base "
                                            "to the current hand and melds")
    return evolve(state, turn=evolve(state.turn, staged=tuple(moves), base_hand=base_hand,
                                       base_melds=base_melds))


def _check(state: State) -> None:
    """Structural checks: seats in range and playing, the deck conserved, red threes
    only where play leaves them (the seat in turn has laid its own)."""
    rules = state.rules
    if state.turn.seat not in state.order:
        raise BadInput(Reason.BAD_NOTATION, f"seat {state.turn.seat} is not playing this hand")
    total: Counter[Card] = Counter(state.stock) + Counter(state.pile)
    for zone in (*state.hands, *state.red3):
        total.update(zone)
    for team in state.melds:
        for m in team:
            total.update(m.cards)
    if total != composition(rules):
        raise BadInput(Reason.BAD_NOTATION, "the position does not hold exactly the game's cards")
    if state.pending_red3[state.turn.seat]:  # CL-R3-1: a turn begins by laying them
        raise BadInput(Reason.BAD_NOTATION, f"seat {state.turn.seat} has begun its turn, so "
                                            "its red threes are laid (pending_red3 0)")
    for seat, hand in enumerate(state.hands):  # CL-R3-1, CL-R3-2: laid at once
        if not state.pending_red3[seat] and any(IS_RED_THREE[c] for c in hand):
            raise BadInput(Reason.BAD_NOTATION, f"hand{seat} holds a red three, which only a "
                                                "seat yet to begin a turn (pending_red3) holds")
