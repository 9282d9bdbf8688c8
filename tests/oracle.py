"""A brute-force oracle of the legal moves of the Canasta family (tests only).

Deliberately simple and independent of the engine's move generator (engine/legal.py and
its modules are neither read nor imported): it tries every sub-multiset of the hand as a
new meld, as an addition to each of the side's melds and as the cards shown to take the
pile (with every set of extra melds an unopened side may show), every card as a discard,
and judges each from the rules as docs/rules-classic.md and docs/engine.md state them
(the rule IDs are in the comments). Of the engine it reads only plain data: the state's
fields and the card tables. It knows each variant's default options, nothing more.

Where the laws leave a choice, the oracle follows the engine's documented decision:

* identical cards (docs/engine.md, *Canonical shapes*): a move is a shape (how many
  naturals of a rank, how many deuces and jokers); the lowest card ids are played;
* a meld action, a take or a black-three meld is listed only if the turn can still end
  afterwards without ``undo`` (CL-MELD-11, CL-MIN-8, CL-OUT-3; *Ending the turn*): the
  oracle decides that by its own exhaustive search of the turn;
* a take shows the extra melds an unopened side needs, irreducibly (*Taking the pile*).

Moves are compared as :data:`Key` values, so the engine's spelling of a move does not
matter, only what it does (:func:`move_key` reads an engine move the same way).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from engine.cards import IS_BLACK_THREE, IS_RED_THREE, RANK, RANK_CHARS, SUIT, SUIT_CHARS
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
)
from engine.state import Phase, State

Key = tuple[object, ...]
Hand = tuple[int, ...]

JOKER, DEUCE, FOUR, EIGHT, ACE = 52, 0, 2, 6, 12
BLACK_THREES, WILD_MELD, SEQUENCE = 1, 13, 14  # meld codes (docs/engine.md, *Meld kinds*)
WILD = tuple(c == JOKER or RANK[c] == DEUCE for c in range(53))
# CL-DECK-4, variants 0.2: joker 50, deuce 20, ace 20, K..8 10, 7..4 5, black three 5
VALUE = tuple(50 if c == JOKER else 20 if RANK[c] in (DEUCE, ACE) else
              10 if RANK[c] >= EIGHT else 5 for c in range(53))
LOW = -(10**9)

# Where the engine today reads the rules more narrowly than the oracle does. Each is a
# reported disagreement (tests/test_oracle.py pins a position of each as a strict xfail);
# the oracle applies them so that the sweep guards everything else. False: the rules.
ENGINE_READINGS = {
    # a take that leaves fewer than two cards needs the right to go out at once, although
    # the turn could still end (add the last card to complete a canasta, then go out)
    "take-keeps-two": True,
    # Samba: so does a meld action that leaves one card (classic lists it: CL-MELD-11,
    # SA-OUT-4 forbid melding down to zero only)
    "samba-meld-keeps-two": True,
    # Samba, Bolivia: a take never shows two groups of one rank (the top card's and an
    # extra, or two extras), although SA-MELD-5 allows several and each is needed for the
    # minimum (EXTRA_MELD_NOT_NEEDED)
    "take-one-group-per-rank": True,
}


@dataclass(frozen=True)
class Laws:
    """One variant's default rules, from the rules files (not from the engine's RuleSet)."""

    family: bool  # Samba, Bolivia, Bolivia with sevens: several groups, sequences, merges
    wild_limit: int  # CL-MELD-1: 3; SA-MELD-2, BO-WILD-1: 2
    cap: int  # SV-CAN-1: no meld past 7 cards (0: none)
    wild_melds: bool  # BO-WILD-2
    b3_any_time: bool  # BO-B3-1 (otherwise CL-MELD-3, SA-B3-1: only when going out)
    b3_last: bool  # Samba: black threes are the last cards laid (docs/engine.md)
    b3_counts: bool  # BO-INIT-2: Bolivia's black threes do not count toward the opening
    going_out: bool  # BO-OUT-1: nobody goes out in Bolivia
    need: int  # canastas to go out: CL-OUT-1, CL-P2-3, CL-P6-5, SA-OUT-1
    permission: bool  # CL-OUT-4: "may I go out?" in partnership games
    concealed_exempt: bool  # CL-MIN-9 (the family asks the minimum of every opening)
    compulsory: bool  # CL-EXH-4, SA-END-3; BO-END-3: optional
    pair_only: bool  # SA-PILE-1/2: the pile needs a natural pair or an extension
    bonus: int  # SV-BONUS-1: stock cards to the deal's first canasta
    bands: tuple[tuple[int, int], ...]  # (lowest score, minimum), highest first


CLASSIC_BANDS = ((3000, 120), (1500, 90), (0, 50), (LOW, 15))  # CL-MIN-1
SAMBA_BANDS = ((7000, 150), (3000, 120), (1500, 90), (0, 50), (LOW, 15))  # SA-INIT-1, BO-INIT-1
SEVENS_BANDS = ((10500, 180), (7000, 140), (3500, 100), (LOW, 60))  # SV-INIT-1


def laws_of(variant: str, players: int) -> Laws:
    if variant == "classic":
        return Laws(family=False, wild_limit=3, cap=0, wild_melds=False, b3_any_time=False,
                    b3_last=False, b3_counts=True, going_out=True, need=2 if players in (2, 6) else 1,
                    permission=players >= 4, concealed_exempt=True, compulsory=True,
                    pair_only=False, bonus=0,
                    bands=((7500, 150), *CLASSIC_BANDS) if players == 6 else CLASSIC_BANDS)
    family = dict(family=True, wild_limit=2, permission=False, concealed_exempt=False,
                  pair_only=True, need=2)
    if variant == "samba":
        return Laws(**family, cap=0, wild_melds=False, b3_any_time=False, b3_last=True,
                    b3_counts=True,
                    going_out=True, compulsory=True, bonus=0, bands=SAMBA_BANDS)
    bolivia = dict(family, wild_melds=True, b3_any_time=True, b3_last=False, b3_counts=False,
                   going_out=False, compulsory=False)
    if variant == "bolivia":
        return Laws(**bolivia, cap=0, bonus=0, bands=SAMBA_BANDS)
    if variant == "bolivia_sevens":
        return Laws(**bolivia, cap=7, bonus=11, bands=SEVENS_BANDS)
    raise ValueError(f"the oracle does not know {variant!r}")


def minimum(laws: Laws, score: int) -> int:
    return next(m for lowest, m in laws.bands if score >= lowest)


# --- melds ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OMeld:
    """A meld on the table: its code (a natural rank, 1, 13 or 14 + suit) and cards."""

    code: int
    cards: Hand
    created: bool = field(default=False, compare=False)  # laid by the mover this turn

    @property
    def wilds(self) -> int:
        return sum(WILD[c] for c in self.cards)


def value(cards: Hand) -> int:
    return sum(VALUE[c] for c in cards)


def is_run(cards: Hand) -> bool:
    """SA-SEQ-1..4: 3 to 7 naturals 4..A of one suit, each rank once, consecutive."""
    ranks = sorted(RANK[c] for c in cards)
    return (3 <= len(cards) <= 7 and not any(WILD[c] for c in cards)
            and len({SUIT[c] for c in cards}) == 1 and ranks[0] >= FOUR
            and ranks == list(range(ranks[0], ranks[0] + len(ranks))))


def new_meld_code(cards: Hand, laws: Laws) -> int | None:
    """The kind of meld these cards make on their own, or None (CL-MELD-1..4, SA-MELD,
    SA-SEQ, BO-WILD-2, CL-MELD-3 / BO-B3-1: three or four black threes, nothing else)."""
    n = len(cards)
    if n < 3 or any(IS_RED_THREE[c] for c in cards):
        return None
    if any(IS_BLACK_THREE[c] for c in cards):
        return BLACK_THREES if all(IS_BLACK_THREE[c] for c in cards) and n <= 4 else None
    if laws.cap and n > laws.cap:
        return None
    naturals = [c for c in cards if not WILD[c]]
    if not naturals:
        return WILD_MELD if laws.wild_melds and n <= 7 else None
    ranks = {RANK[c] for c in naturals}
    if len(ranks) == 1:
        ok = len(naturals) >= 2 and n - len(naturals) <= laws.wild_limit
        return ranks.pop() if ok else None
    return SEQUENCE + SUIT[cards[0]] if laws.family and is_run(cards) else None


def can_add(meld: OMeld, cards: Hand, laws: Laws) -> bool:
    """CL-MELD-6, CL-MELD-1, SA-MELD-2, SA-CAN-3, SA-SEQ-5, BO-WILD-3, BO-B3-2, SV-CAN-1."""
    total = len(meld.cards) + len(cards)
    if laws.cap and total > laws.cap:
        return False
    if meld.code == BLACK_THREES:
        return not laws.b3_any_time and total <= 4 and all(IS_BLACK_THREE[c] for c in cards)
    if meld.code == WILD_MELD:
        return len(meld.cards) < 7 and total <= 7 and all(WILD[c] for c in cards)
    if meld.code >= SEQUENCE:
        return len(meld.cards) < 7 and is_run(meld.cards + cards)
    if not all(WILD[c] or RANK[c] == meld.code for c in cards):
        return False
    wilds = sum(WILD[c] for c in cards)
    if laws.family and wilds and len(meld.cards) >= 7:  # SA-CAN-3: a canasta takes no wild
        return False
    return meld.wilds + wilds <= laws.wild_limit


def can_merge(first: OMeld, second: OMeld, laws: Laws) -> bool:
    """SA-MELD-6, SV-CAN-2: two groups of one rank, the result within the limits."""
    if first.code != second.code or not FOUR <= first.code <= ACE:
        return False
    if laws.cap and len(first.cards) + len(second.cards) > laws.cap:
        return False
    if (len(first.cards) >= 7 and second.wilds) or (len(second.cards) >= 7 and first.wilds):
        return False  # SA-CAN-3
    return first.wilds + second.wilds <= laws.wild_limit


def shape(code: int, cards: Hand) -> Key:
    """What a move does with these cards, whichever copies it names."""
    if code >= SEQUENCE:
        return tuple(sorted(cards))
    if code == BLACK_THREES:
        return (len(cards),)
    return (sum(not WILD[c] for c in cards), sum(RANK[c] == DEUCE and c != JOKER
                                                 for c in cards), cards.count(JOKER))


def label_base(meld: OMeld) -> str:
    if meld.code == BLACK_THREES:
        return "3"
    if meld.code == WILD_MELD:
        return "W"
    if meld.code >= SEQUENCE:
        ranks = sorted(RANK[c] for c in meld.cards)
        return f"{SUIT_CHARS[meld.code - SEQUENCE]}:{RANK_CHARS[ranks[0]]}-{RANK_CHARS[ranks[-1]]}"
    return RANK_CHARS[meld.code]


def labels(melds: tuple[OMeld, ...]) -> list[str]:
    """docs/engine.md, *Meld kinds and labels*: ``K``, then ``K#2``, ``K#3`` in the side's order."""
    seen: Counter[str] = Counter()
    out = []
    for meld in melds:
        base = label_base(meld)
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def targets(melds: tuple[OMeld, ...]) -> list[tuple[int, str]]:
    """The side's melds a move may name: identical melds are one target, the first."""
    seen: set[tuple[int, Hand]] = set()
    out = []
    for i, (meld, name) in enumerate(zip(melds, labels(melds), strict=True)):
        if (meld.code, meld.cards) not in seen:
            seen.add((meld.code, meld.cards))
            out.append((i, name))
    return out


def place(melds: tuple[OMeld, ...], meld: OMeld) -> tuple[OMeld, ...]:
    """A new meld goes after the melds of its code (labels stay put)."""
    at = sum(1 for m in melds if m.code <= meld.code)
    return (*melds[:at], meld, *melds[at:])


def canastas(melds: tuple[OMeld, ...]) -> int:
    """CL-CAN-1, SA-CAN-2, BO-WILD-2, BO-SEQ-2: seven cards or more (never black threes)."""
    return sum(1 for m in melds if len(m.cards) >= 7 and m.code != BLACK_THREES)


# --- sub-multisets and canonical copies -------------------------------------------------


@lru_cache(maxsize=65536)
def submultisets(hand: Hand) -> tuple[Hand, ...]:
    """Every distinct sub-multiset of a sorted hand, each sorted."""
    out: list[Hand] = [()]
    for card, count in sorted(Counter(hand).items()):
        out = [sub + (card,) * k for sub in out for k in range(count + 1)]
    return tuple(out)


def remove(hand: Hand, cards: Hand) -> Hand:
    left = Counter(hand)
    left.subtract(cards)
    assert all(v >= 0 for v in left.values()), (hand, cards)
    return tuple(sorted(left.elements()))


def pick(hand: Hand, code: int, cards: Hand) -> Hand | None:
    """The lowest-id copies in ``hand`` that do what ``cards`` do (docs/engine.md), or
    None when the hand cannot: a sequence names its cards, anything else a shape."""
    if code >= SEQUENCE:
        return cards if not Counter(cards) - Counter(hand) else None
    naturals = [c for c in cards if not WILD[c]]
    deuces = sum(1 for c in cards if WILD[c] and c != JOKER)
    jokers = cards.count(JOKER)
    rank = RANK[naturals[0]] if naturals else -1
    pool = [c for c in hand if not WILD[c] and RANK[c] == rank]
    wilds = [c for c in hand if WILD[c] and c != JOKER]
    if len(pool) < len(naturals) or len(wilds) < deuces or hand.count(JOKER) < jokers:
        return None
    return tuple(sorted(pool[:len(naturals)] + wilds[:deuces] + [JOKER] * jokers))


# --- the turn ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """What stays fixed while a turn is searched."""

    laws: Laws
    minimum: int
    answer: str  # "", "yes" or "no" (CL-OUT-5/6)
    drew: str  # "stock" or "pile"
    melded_before: bool  # CL-OUT-10 (a)
    no_discard: bool  # the turn may only meld and end
    canasta_elsewhere: bool  # SV-BONUS-3: a canasta on the other side's table
    memo: dict[tuple[str, tuple[object, ...]], bool] = field(default_factory=dict,
                                                             compare=False)


@dataclass(frozen=True)
class Turn:
    """The mover's side during a turn: hand, melds, what was laid toward the minimum."""

    hand: Hand
    melds: tuple[OMeld, ...]
    laid: int  # card values laid this turn toward the opening (CL-MIN-4)
    opened: bool
    black_threes: bool  # CL-MELD-3, SA-B3-1: black threes melded: the turn must go out
    stock: Hand  # bottom to top (SV-BONUS-1 draws from it)

    def memo_key(self) -> tuple[object, ...]:
        return (self.hand, tuple(sorted((m.code, m.cards, m.created) for m in self.melds)),
                self.laid, self.opened, self.black_threes, len(self.stock))


def min_ok(t: Turn, tab: Table) -> bool:
    """CL-MIN-8, SA-INIT-1: nothing laid, or enough laid, or the side opened before."""
    return t.opened or t.laid == 0 or t.laid >= tab.minimum


def may_go_out(t: Turn, tab: Table) -> bool:
    """CL-OUT-1, CL-OUT-6, SA-OUT-1, BO-OUT-1; CL-MIN-9 / CL-OUT-10: a concealed going
    out after a stock draw needs no minimum (classic)."""
    if not tab.laws.going_out or tab.answer == "no" or canastas(t.melds) < tab.laws.need:
        return False
    concealed = (tab.laws.concealed_exempt and tab.drew == "stock" and not tab.melded_before
                 and any(m.created and len(m.cards) >= 7 for m in t.melds))
    return min_ok(t, tab) or concealed


def bonus_due(t: Turn, tab: Table) -> bool:
    """SV-BONUS-1/3: the deal's first canasta, on either side, draws the bonus cards."""
    return bool(tab.laws.bonus) and not tab.canasta_elsewhere and not canastas(t.melds)


def after_canasta(t: Turn, tab: Table, was_due: bool) -> Turn | None:
    """SV-BONUS-1/2/5: the action completed the first canasta: draw the top cards of the
    stock (red threes laid and replaced). An unopened side must first have laid its
    minimum (the draw makes the turn's melds final; engine reading of SV-BONUS-2)."""
    if not was_due or not canastas(t.melds):
        return t
    if not min_ok(t, tab):
        return None
    stock, drawn = list(t.stock), []
    while stock and len(drawn) < tab.laws.bonus:
        card = stock.pop()
        if not IS_RED_THREE[card]:
            drawn.append(card)
    return Turn(tuple(sorted(t.hand + tuple(drawn))), t.melds, t.laid, True, t.black_threes,
                tuple(stock))


def lay(t: Turn, tab: Table, cards: Hand, melds: tuple[OMeld, ...], b3: bool) -> Turn | None:
    counts = tab.laws.b3_counts or not all(IS_BLACK_THREE[c] for c in cards)
    nxt = Turn(remove(t.hand, cards), melds, t.laid + (value(cards) if counts else 0),
               t.opened, t.black_threes or b3, t.stock)
    return after_canasta(nxt, tab, bonus_due(t, tab))


def actions(t: Turn, tab: Table) -> Iterator[tuple[Key, Turn]]:
    """Every meld action that is valid now, with what follows (CL-MELD-11, CL-DISC-4: one
    that empties the hand is a going out, and needs the right to go out at once)."""
    for key, nxt, left in shaped(t, tab):
        if keeps(left, nxt, tab, False):
            yield key, nxt


def keeps(left: int, nxt: Turn, tab: Table, take: bool) -> bool:
    """The hand-size rule of an action that leaves ``left`` cards (before any bonus draw).

    BO-OUT-1: in Bolivia a meld leaves two cards (counting the bonus cards it draws).
    CL-MELD-11, CL-DISC-4, SA-OUT-4: emptying the hand is a going out, so it needs the
    right to go out at once; one card left is fine while the turn can still end."""
    if not tab.laws.going_out:
        return len(nxt.hand) >= 2
    strict = ENGINE_READINGS["take-keeps-two"] if take else (
        tab.laws.b3_last and ENGINE_READINGS["samba-meld-keeps-two"])
    return left > (1 if strict else 0) or may_go_out(nxt, tab)


def shaped(t: Turn, tab: Table) -> Iterator[tuple[Key, Turn, int]]:
    """Every meld action whose cards make a valid meld or addition (and CL-MELD-3)."""
    laws = tab.laws
    seen: set[Key] = set()
    for sub in submultisets(t.hand):
        code = new_meld_code(sub, laws)
        if code is None:
            continue
        if not laws.family and any(m.code == code for m in t.melds):
            continue  # CL-MELD-5: one meld per rank per side
        if code == BLACK_THREES and not laws.b3_any_time and not (
                laws.going_out and tab.answer != "no" and canastas(t.melds) >= laws.need):
            continue  # CL-MELD-3 (engine: only once the side has its canastas), SA-B3-1
        if code == BLACK_THREES and laws.b3_last and len(t.hand) - len(sub) > 1:
            continue  # SA-B3-1, engine reading: nothing but the last discard may follow
        key: Key = ("meld", code, shape(code, sub))
        if key in seen:
            continue
        seen.add(key)
        cards = pick(t.hand, code, sub)
        assert cards is not None
        nxt = lay(t, tab, cards, place(t.melds, OMeld(code, cards, True)),
                  code == BLACK_THREES and not laws.b3_any_time)
        if nxt is not None:
            yield key, nxt, len(t.hand) - len(cards)
    for i, name in targets(t.melds):
        meld = t.melds[i]
        for sub in submultisets(t.hand)[1:]:
            if not can_add(meld, sub, laws):
                continue
            key = ("add", name, shape(meld.code, sub))
            if key in seen:
                continue
            seen.add(key)
            cards = pick(t.hand, meld.code, sub)
            assert cards is not None
            grown = OMeld(meld.code, tuple(sorted(meld.cards + cards)), meld.created)
            melds = (*t.melds[:i], grown, *t.melds[i + 1:])
            nxt = lay(t, tab, cards, melds, False)
            if nxt is not None:
                yield key, nxt, len(t.hand) - len(cards)
    if laws.family:  # SA-MELD-6: merge the second group into the first
        names = labels(t.melds)
        for i, first in targets(t.melds):
            later: set[tuple[int, Hand]] = set()
            for j in range(i + 1, len(t.melds)):
                second = names[j]
                if (t.melds[j].code, t.melds[j].cards) in later:
                    continue  # identical melds: the first names them
                later.add((t.melds[j].code, t.melds[j].cards))
                if can_merge(t.melds[i], t.melds[j], laws):
                    merged = OMeld(t.melds[i].code,
                                   tuple(sorted(t.melds[i].cards + t.melds[j].cards)),
                                   t.melds[i].created)
                    melds = tuple(merged if k == i else m for k, m in enumerate(t.melds)
                                  if k != j)
                    nxt = after_canasta(Turn(t.hand, melds, t.laid, t.opened,
                                             t.black_threes, t.stock), tab, bonus_due(t, tab))
                    if nxt is not None:
                        yield ("merge", first, second), nxt, len(t.hand)


def out_reachable(t: Turn, tab: Table) -> bool:
    """Some sequence of meld actions reaches a going out (CL-OUT-5)."""
    memo_key = ("out", t.memo_key())
    if memo_key not in tab.memo:
        tab.memo[memo_key] = (len(t.hand) <= 1 and may_go_out(t, tab)) or any(
            out_reachable(nxt, tab) for _, nxt in actions(t, tab))
    return tab.memo[memo_key]


def ends(t: Turn, tab: Table) -> list[Key]:
    """The listed ways to end the turn now."""
    if tab.no_discard:
        return [("end",)]
    out: list[Key] = []
    # CL-OUT-5 (permission_yes=strict): after "yes", no discard while going out is possible
    bound = tab.answer == "yes" and tab.laws.permission and out_reachable(t, tab)
    if len(t.hand) >= 2 and not t.black_threes and min_ok(t, tab) and not bound:
        out += [("discard", c) for c in sorted(set(t.hand))]
    if len(t.hand) <= 1 and may_go_out(t, tab):
        out.append(("out", t.hand[0] if t.hand else -1))
    return out


def can_end(t: Turn, tab: Table) -> bool:
    """The turn can still end (CL-OUT-3, CL-MIN-8): now, or after more meld actions."""
    if tab.no_discard or (len(t.hand) >= 2 and not t.black_threes and min_ok(t, tab)):
        return True  # a discard, or (after "yes") the going out that forbids it
    memo_key = ("end", t.memo_key())
    if memo_key not in tab.memo:
        tab.memo[memo_key] = bool(ends(t, tab)) or any(
            can_end(nxt, tab) for _, nxt in actions(t, tab))
    return tab.memo[memo_key]


# --- taking the pile ----------------------------------------------------------------------


def extra_sets(rest: Hand, need: int, codes: set[int], top_rank: int, laws: Laws
               ) -> Iterator[tuple[tuple[Key, ...], Hand, tuple[OMeld, ...]]]:
    """CL-MIN-6, CL-PILE-8, SA-PILE-9: the sets of new melds from ``rest`` that an
    unopened side shows with a take to bring its count to ``need``, each meld needed
    (irreducible: docs/engine.md, *Taking the pile*). Black threes never count here."""
    candidates: dict[Key, tuple[int, Hand]] = {}
    for sub in submultisets(rest):
        code = new_meld_code(sub, laws)
        if code is None or code == BLACK_THREES or (not laws.family and code in codes):
            continue
        if ENGINE_READINGS["take-one-group-per-rank"] and code == top_rank:
            continue
        candidates.setdefault((code, shape(code, sub)), (code, sub))
    keys = sorted(candidates, key=repr)

    def grow(start: int, chosen: list[tuple[Key, OMeld]], left: Hand, total: int
             ) -> Iterator[tuple[tuple[Key, ...], Hand, tuple[OMeld, ...]]]:
        if total >= need:
            if all(total - value(m.cards) < need for _, m in chosen):
                used = tuple(c for _, m in chosen for c in m.cards)
                yield tuple(sorted((k for k, _ in chosen), key=repr)), used, tuple(
                    m for _, m in chosen)
            return
        for i in range(start, len(keys)):
            code, sub = candidates[keys[i]]
            one_per_rank = not laws.family or (ENGINE_READINGS["take-one-group-per-rank"]
                                               and FOUR <= code <= ACE)
            if one_per_rank and any(m.code == code for _, m in chosen):
                continue  # CL-MELD-5
            cards = pick(left, code, sub)
            if cards is not None:
                yield from grow(i, [*chosen, (keys[i], OMeld(code, cards, True))],
                                remove(left, cards), total + value(cards))

    if need <= 0:
        yield (), (), ()
    else:
        yield from grow(0, [], rest, 0)


def takes(state: State, t: Turn, tab: Table) -> Iterator[tuple[Key, Turn, Table]]:
    """Every listed way to take the pile, with the turn that follows (CL-PILE-*, SA-PILE-*)."""
    laws, pile = tab.laws, state.pile
    if not pile:
        return  # CL-PILE-12
    top = pile[-1]
    if WILD[top] or IS_BLACK_THREE[top]:
        return  # CL-PILE-2, SA-PILE-7, BO-PILE-10
    if len(t.hand) == 1 and len(pile) == 1:
        return  # CL-PILE-9
    frozen = not t.opened or any(WILD[c] or IS_RED_THREE[c] for c in pile)  # CL-PILE-3/4
    rank = RANK[top]
    rest = tuple(c for c in pile[:-1] if not IS_RED_THREE[c])  # CL-R3-3: red threes are laid
    after = Table(laws, tab.minimum, tab.answer, "pile", tab.melded_before, False,
                  tab.canasta_elsewhere)
    for sub in submultisets(t.hand):
        naturals = sum(1 for c in sub if not WILD[c])
        if not all(RANK[c] == rank or (WILD[c] and not laws.pair_only) for c in sub):
            continue  # SA-PILE-2: never with a wild card in the family
        if frozen and naturals < 2 and (sub or laws.family):
            continue  # CL-PILE-6, SA-PILE-6: a frozen pile needs a natural pair
        if sub and laws.pair_only and naturals < 2:
            continue  # SA-PILE-1
        shown = pick(t.hand, rank, sub) if sub else ()
        assert shown is not None
        for at, name in destinations(t, laws, top, shown, frozen):
            if at < 0:
                melds = place(t.melds, OMeld(rank, tuple(sorted((top, *shown))), True))
            else:
                melds = tuple(OMeld(m.code, tuple(sorted((*m.cards, top, *shown))), m.created)
                              if k == at else m for k, m in enumerate(t.melds))
            need = 0 if t.opened else tab.minimum - value((top, *shown))
            codes = {m.code for m in melds}
            for extras, used, laid in extra_sets(remove(t.hand, shown), need, codes, rank,
                                                  laws):
                table = melds
                for meld in laid:
                    table = place(table, meld)
                hand = tuple(sorted(remove(remove(t.hand, shown), used) + rest))
                nxt = after_canasta(Turn(hand, table, 0, True, False, state.stock), tab,
                                    bonus_due(t, tab))
                if nxt is not None and keeps(len(hand), nxt, after, True) and can_end(nxt, after):
                    key: Key = ("take", name, shape(rank, shown), extras)
                    yield key, nxt, after


def destinations(t: Turn, laws: Laws, top: int, shown: Hand, frozen: bool
                 ) -> Iterator[tuple[int, str]]:
    """Where the top card (and the shown cards) go: -1 for a new group, else the meld.

    Classic (CL-PILE-6/7): onto the side's meld of the rank if there is one (the top card
    alone only when the pile is not frozen), else a new group. The family (SA-PILE-1/3/5):
    a natural pair makes a new group or joins a group of the rank that is not a canasta;
    the top card alone (pile not frozen) extends such a group or a sequence."""
    rank = RANK[top]
    if not laws.family:
        existing = [i for i, m in enumerate(t.melds) if m.code == rank]
        if existing:
            if (shown or not frozen) and can_add(t.melds[existing[0]], (top, *shown), laws):
                yield existing[0], RANK_CHARS[rank]
        elif new_meld_code((top, *shown), laws) == rank:
            yield -1, ""
        return
    if shown and new_meld_code(tuple(sorted((top, *shown))), laws) == rank:
        yield -1, ""
    for i, name in targets(t.melds):
        meld = t.melds[i]
        grows = len(meld.cards) < 7 if FOUR <= meld.code <= ACE else meld.code >= SEQUENCE
        if grows and (shown or not frozen) and can_add(meld, (top, *shown), laws):
            if meld.code >= SEQUENCE and shown:
                continue  # SA-PILE-4: never with hand cards to a sequence
            yield i, name


# --- the legal list -----------------------------------------------------------------------


def turn_of(state: State) -> tuple[Turn, Table]:
    """The mover's side as the oracle models it, read from the state's fields."""
    laws = laws_of(state.rules.variant, state.rules.players)
    turn, seat = state.turn, state.turn.seat
    side = state.side_of[seat]
    before = {m.rank for m in turn.base_melds}
    melds = tuple(OMeld(m.rank, tuple(sorted(m.cards)),
                        (bool(turn.staged) and m.rank not in before) or m.rank in turn.created)
                  for m in state.melds[side])
    laid = 0
    if turn.staged:  # CL-MIN-4: what the staged actions laid from the hand
        gone = Counter(turn.base_hand)
        gone.subtract(state.hands[seat])
        laid = sum(VALUE[c] * k for c, k in gone.items()
                   if k > 0 and (laws.b3_counts or not IS_BLACK_THREE[c]))
    black_threes = not laws.b3_any_time and any(m.code == BLACK_THREES for m in melds)
    elsewhere = any(len(m.cards) >= 7 and m.rank != BLACK_THREES
                    for i, ms in enumerate(state.melds) if i != side for m in ms)
    score = state.scores[state.rules.layout.seat_team[seat]]
    t = Turn(tuple(sorted(state.hands[seat])), melds, laid, state.opened[side], black_threes,
             tuple(state.stock))
    tab = Table(laws, minimum(laws, score), turn.answer, turn.drew, state.melded[seat],
                turn.no_discard, elsewhere)
    return t, tab


def legal_keys(state: State) -> set[Key]:
    """What the rules allow the awaited seat now, one key per distinct move."""
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        return set()
    if state.phase is Phase.PERMISSION:
        return {("yes",), ("no",)}  # CL-OUT-5/6: the partner answers
    t, tab = turn_of(state)
    asked = state.turn.asked or not tab.laws.permission  # CL-OUT-4: once per turn
    keys: set[Key] = set()
    if state.phase in (Phase.DRAW, Phase.DRAW_EXHAUSTED):
        keys.update(key for key, _, _ in takes(state, t, tab))
        if state.phase is Phase.DRAW:
            keys.add(("draw",))  # CL-DRAW-1
        elif not (tab.laws.compulsory and any(k[2] == (0, 0, 0) for k in keys)):
            keys.add(("decline",))  # CL-EXH-4..6, SA-END-3, BO-END-3
        if not asked:
            keys.add(("ask",))
        return keys
    assert state.phase is Phase.MELD, state.phase
    keys.update(key for key, nxt in actions(t, tab) if can_end(nxt, tab))
    keys.update(ends(t, tab))
    if state.turn.staged:
        keys.add(("undo",))  # CL-MIN-8
    if not asked and state.turn.drew == "stock" and not state.turn.staged:
        keys.add(("ask",))  # CL-OUT-4: after a stock draw, before any meld
    return keys


def move_key(state: State, move: Move) -> Key:
    """An engine move as the oracle's key (what it does, not how it is spelt)."""
    bare = {Draw: "draw", Ask: "ask", Undo: "undo", Decline: "decline", EndHand: "end"}
    if type(move) in bare:
        return (bare[type(move)],)
    if isinstance(move, Answer):
        return ("yes",) if move.yes else ("no",)
    if isinstance(move, Discard):
        return ("discard", move.card)
    if isinstance(move, GoOut):
        return ("out", -1 if move.card is None else move.card)
    t, tab = turn_of(state)
    if isinstance(move, Meld):
        (group,) = move.groups  # batch openings are not a default
        code = new_meld_code(tuple(sorted(group)), tab.laws)
        assert code is not None, move
        return ("meld", code, shape(code, group))
    if isinstance(move, AddToMeld):
        name = move.label or (RANK_CHARS[move.rank] if move.rank < WILD_MELD else "W")
        meld = t.melds[labels(t.melds).index(name)]
        return ("add", name, shape(meld.code, move.cards))
    if isinstance(move, Merge):
        return ("merge", move.first, move.second)
    assert isinstance(move, TakePile), move
    rank = RANK[state.pile[-1]]
    name = move.target
    if not tab.laws.family and any(m.code == rank for m in t.melds):
        name = RANK_CHARS[rank]
    extras = tuple(sorted(((code, shape(code, g)) for g in move.extras
                           for code in [new_meld_code(tuple(sorted(g)), tab.laws)]), key=repr))
    return ("take", name, shape(rank, move.cards), extras)
