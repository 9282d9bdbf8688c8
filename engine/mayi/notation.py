"""May I? position notation: a whole state as text (``export_position`` /
``import_position`` of the facade dispatch here on the header line).

One ``key: value`` per line; cards are codes; the stock and the pile are written
bottom to top; ``-`` is an empty zone. Melds of a seat are separated by ``|``,
a set by card id, a run from its low end. Options are ``name=value`` pairs
separated by ``;`` (a custom schedule holds commas). For hand-written positions
``stock``, ``pile`` and ``handN`` may start with ``*N`` (N cards from those not
placed elsewhere) or ``*`` (all the rest), filled in line order from the unplaced
cards shuffled by the position's seed; cards written after it lie on top
(``pile: *6 9H`` is six cards under a 9H). Lines left out take these defaults: ``hand 0``,
the last seat deals, ``turn`` = the dealer's left, ``phase draw``, ``fresh 1``
when the pile holds a card in the draw or buy phase, ``discarder`` = the seat
before the player in turn when the discard is fresh, ``drew stock`` in the meld
phase, scores and buys 0. The lines every position has and their reader are
:mod:`engine.notation_lines`; this module holds May I?'s own fields.

>>> from engine.mayi.game import new_game
>>> s = new_game(4, seed=3)
>>> import_position(export_position(s)) == s
True
"""

from __future__ import annotations

from collections import Counter

from engine.cards import CODES, JOKER, Card, parse_cards
from engine.errors import BadInput, Reason
from engine.mayi.melds import classify
from engine.mayi.rules import OPTIONS, MayIRules, build
from engine.mayi.scoring import deal_result, game_over
from engine.mayi.state import MAYI_PHASES, MayIState, MayITurn
from engine.mayi.successor import evolve
from engine.mayi.table import TableMeld
from engine.mayi.transitions import buy_refusal, composition
from engine.notation_lines import (
    Reader,
    cards_text,
    check_over,
    fill_zones,
    head_lines,
    ints_text,
    named,
    option_text,
    options_of,
    read_position,
    zone_lines,
)
from engine.state import Phase

HEADER = "mayi-position 1"
# a Canasta-style header is read too when the text says "variant: may_i"
CANASTA_HEADER = "canasta-position 1"


def _upcards(text: str) -> tuple[Card, ...]:
    """The card turned up at the deal: a record of the table (it may be anywhere now),
    a card of the two packs (no joker)."""
    cards = () if text == "-" else parse_cards(text)
    if any(c == JOKER for c in cards):
        raise BadInput(Reason.BAD_NOTATION, "May I? has no jokers to turn up")
    return cards


def export_position(state: MayIState) -> str:
    """The position as text (see the module docstring)."""
    rules = state.rules
    defaults = {s.name: s.default for s in OPTIONS}
    opts = "; ".join(f"{k}={option_text(v)}" for k, v in rules.options
                     if defaults[k] != v) or "-"
    t = state.turn
    lines = [
        *head_lines(HEADER, state, opts),
        f"fresh: {1 if t.fresh else 0}",
        f"discarder: {t.discarder}",
        f"window: {ints_text(t.window)}",
        f"taken: {CODES[t.taken] if t.taken is not None else '-'}",
        f"went_down: {1 if t.went_down else 0}",
        f"laid_off: {1 if t.laid_off else 0}",
        f"reshuffles: {state.reshuffles}",
        f"buys: {ints_text(state.buys)}",
        *zone_lines(state),
    ]
    lines += [f"melds{s}: " + (" | ".join(cards_text(m.cards) for m in melds) or "-")
              for s, melds in enumerate(state.melds)]
    if state.upcards:
        lines.append(f"upcards: {cards_text(state.upcards)}")
    if state.result is not None:
        lines.append(f"result: {state.result.went_out}")
    return "\n".join(lines) + "\n"


def is_mayi_position(text: str) -> bool:
    """Whether a position text is May I?'s: its header, or the Canasta header with
    ``variant: may_i`` (the facade's ``import_position`` dispatches on this)."""
    head = text.lstrip()
    if head.startswith(HEADER):
        return True
    if not head.startswith(CANASTA_HEADER):
        return False
    return any(ln.partition(":")[0].strip() == "variant" and ln.partition(":")[2].strip()
               == "may_i" for ln in head.splitlines())


def _melds(rules: MayIRules, text: str) -> tuple[TableMeld, ...]:
    if text.strip() in ("", "-"):
        return ()
    out = []
    for part in text.split("|"):
        if ":" in part:  # a Canasta-style label ("7@2: 7S 7H 7D") is read and ignored
            part = part.partition(":")[2]
        meld = classify(parse_cards(part), rules.wrap)
        if meld is None:
            raise BadInput(Reason.BAD_NOTATION, f"{part.strip()!r} is not a set or a sequence")
        out.append(meld)
    return tuple(out)


def import_position(text: str) -> MayIState:
    """Read a position.

    :raises BadInput: ``BAD_NOTATION`` (or an option error) for malformed or
        inconsistent text, including cards that are not exactly the 104 of the game.
    """
    return read_position(_import, text)


def _import(text: str) -> MayIState:
    r = Reader(text, HEADER, "a May I? position", (CANASTA_HEADER,))
    if r.get("variant", "may_i") != "may_i":
        raise BadInput(Reason.BAD_NOTATION, "a May I? position has variant may_i")
    rules = build(r.one("players", "4"), options_of(r.get("options", "-")))
    n = rules.players
    seed = r.one("seed", "0")
    hand_no = r.one("hand", "0")
    if not 0 <= hand_no < rules.deals:
        raise BadInput(Reason.BAD_NOTATION, f"deal {hand_no} is not in the schedule")
    dealer = r.one("dealer", str(n - 1))
    if not 0 <= dealer < n:
        raise BadInput(Reason.BAD_NOTATION, f"there is no seat {dealer}")
    order = tuple((dealer + 1 + k) % n for k in range(n))
    melds = tuple(_melds(rules, r.get(f"melds{s}", "-")) for s in range(n))
    zones = {"stock": r.zone("stock"), "pile": r.zone("pile")}
    for s in range(n):
        zones[f"hand{s}"] = r.zone(f"hand{s}")
    cards = fill_zones(composition(), seed, zones, (m.cards for seat in melds for m in seat),
                       [k for k in r.order if k in zones])
    phase = named(r.get("phase", "draw"), MAYI_PHASES, "phase")
    pile = cards["pile"]
    seat = r.one("turn", str(order[0]))
    live = phase in (Phase.DRAW, Phase.BUY_WINDOW) and bool(pile)
    fresh = r.flag("fresh", "1" if live else "0")
    before = order[(order.index(seat) - 1) % n] if 0 <= seat < n else -1
    taken_text = r.get("taken", "-")
    drew = r.get("drew", "stock" if phase is Phase.MELD else "-")
    turn = MayITurn(
        seat=seat, drew="" if drew == "-" else drew,
        fresh=fresh, discarder=r.one("discarder", str(before) if fresh else "-1"),
        window=r.ints("window", None, "-"),
        taken=None if taken_text == "-" else parse_cards(taken_text)[0],
        went_down=r.flag("went_down"),
        laid_off=r.flag("laid_off"),
    )
    state = MayIState(
        rules=rules, seed=seed, hand_no=hand_no, dealer=dealer,
        scores=r.ints("scores", n, " ".join(["0"] * n)), order=order,
        stock=cards["stock"], pile=pile,
        hands=tuple(tuple(sorted(cards[f"hand{s}"])) for s in range(n)),
        melds=melds, down=tuple(bool(m) for m in melds),
        buys=r.ints("buys", n, " ".join(["0"] * n)), phase=phase, turn=turn,
        reshuffles=r.one("reshuffles", "0"), ply=r.one("ply", "0"),
        upcards=_upcards(r.get("upcards", "-")),
    )
    _check(state)
    result = None
    if "result" in r.fields:
        went_out = r.one("result", "-1")
        if not -1 <= went_out < n or (went_out >= 0 and state.hands[went_out]):
            raise BadInput(Reason.BAD_NOTATION, "the seat that went out holds no card")
        result = deal_result(state, went_out)
    check_over(phase, result, result is not None and game_over(result))
    return state if result is None else evolve(state, result=result)


def _check(state: MayIState) -> None:
    """Structural checks: seats, the turn and its window, counters, the cards."""
    n = state.rules.players
    t = state.turn
    if not 0 <= t.seat < n:
        raise BadInput(Reason.BAD_NOTATION, f"there is no seat {t.seat}")
    if t.drew not in ("", "stock", "pile"):
        raise BadInput(Reason.BAD_NOTATION, "drew is -, stock or pile")
    if not -1 <= t.discarder < n or t.discarder == t.seat:
        raise BadInput(Reason.BAD_NOTATION, f"seat {t.discarder} cannot be the discarder")
    window = t.window
    if (state.phase is Phase.BUY_WINDOW) != bool(window):
        raise BadInput(Reason.BAD_NOTATION, "a buy window is open exactly in the buy_window phase")
    if window and (len(set(window)) != len(window)
                   or any(not 0 <= s < n or s in (t.seat, t.discarder) for s in window)):
        raise BadInput(Reason.BAD_NOTATION, "the window lists other seats than the player in "
                                            "turn and the discarder, each once")
    if any(buy_refusal(state, s) is not None for s in window):
        raise BadInput(Reason.BAD_NOTATION, "a seat in the window may not buy this discard")
    if (t.fresh or window) and not state.pile:
        raise BadInput(Reason.BAD_NOTATION, "a fresh discard needs a pile")
    if state.phase is Phase.MELD and not t.drew:
        raise BadInput(Reason.BAD_NOTATION, "the meld phase comes after a draw")
    if state.phase in (Phase.DRAW, Phase.BUY_WINDOW) and (t.drew or t.taken is not None
                                                          or t.went_down or t.laid_off):
        raise BadInput(Reason.BAD_NOTATION,
                       "drew, taken, went_down and laid_off come after the draw")
    if t.laid_off and not state.down[t.seat]:
        raise BadInput(Reason.BAD_NOTATION, "laid_off needs a player who has gone down")
    if t.taken is not None and t.drew != "pile":
        raise BadInput(Reason.BAD_NOTATION, "a taken card needs 'drew: pile'")
    if t.went_down and not state.down[t.seat]:
        raise BadInput(Reason.BAD_NOTATION, "went_down needs melds of the player in turn")
    if any(b < 0 for b in state.buys) or state.reshuffles < 0 or state.ply < 0:
        raise BadInput(Reason.BAD_NOTATION, "counters are never negative")
    if state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) and not state.hands[t.seat]:
        raise BadInput(Reason.BAD_NOTATION, "the player in turn holds cards")
    total: Counter[Card] = Counter(state.stock) + Counter(state.pile)
    for hand in state.hands:
        total.update(hand)
    for seat in state.melds:
        for m in seat:
            total.update(m.cards)
    if total != composition():
        raise BadInput(Reason.BAD_NOTATION, "the position does not hold exactly the 104 cards")
