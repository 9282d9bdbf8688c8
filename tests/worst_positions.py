"""The largest positions the service's ImportPosition accepts, per variant (default options).

Each is built to make LegalMoves as long as the bounds allow (engine/bounds.py): in
the Canasta games a hand holding nearly the whole deck, alone or beside a table of
melds to add to; in May I? a hand at its reachable maximum (ten dealt, the draw,
three buys with one penalty card each: 17 cards) packed into the ranks of the
deal's contract, found by a search over such hands (the richest found is kept).
``PAGED`` holds positions with non-default options whose lists run to thousands of
moves, answered a page at a time.
``tests/service/test_worst_cases.py`` checks each answer's size and
``bench/limits_bench.py`` times them.
"""

from __future__ import annotations

RANKS = ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


def _canasta(variant: str, players: int, decks: int, melds: str = "") -> str:
    red = " ".join(["3H", "3D"] * decks)
    lines = ["canasta-position 1", f"variant: {variant}", f"players: {players}", "phase: meld",
             "turn: 0", "drew: stock", "opened: 1 0", "seed: 3", f"red3_1: {red}"]
    if melds:
        lines.append(f"melds0: {melds}")
    lines += [f"hand{i}: *1" for i in range(1, players)] + ["pile: *1", "stock: *1", "hand0: *"]
    return "\n".join(lines) + "\n"


def _table(sequences: bool) -> str:
    melds = " | ".join(f"{r}@0: {r}S {r}H {r}D" for r in RANKS)
    return melds + (" | S:5-7@0: 5S 6S 7S | H:8-T@0: 8H 9H TH" if sequences else "")


def _mayi(deal: int, hand: str, options: str = "-") -> str:
    return "\n".join(["mayi-position 1", "variant: may_i", "players: 3", f"options: {options}",
                      f"hand: {deal}",
                      "phase: meld", "turn: 0", "drew: stock", "buys: 3 0 0", f"hand0: {hand}",
                      "hand1: *1", "hand2: *1", "stock: *", ""])


WORST: dict[str, str] = {
    "classic-2 whole deck": _canasta("classic", 2, 2),
    "classic-2 table": _canasta("classic", 2, 2, _table(False)),
    "samba whole deck": _canasta("samba", 4, 3),
    "samba table": _canasta("samba", 4, 3, _table(True)),
    "bolivia whole deck": _canasta("bolivia", 4, 3),
    "bolivia table": _canasta("bolivia", 4, 3, _table(True)),
    "bolivia_sevens table": _canasta("bolivia_sevens", 4, 3, _table(True)),
    "may_i two sets": _mayi(0, "TD KS KS KH KH KD KD KC KC AS AS AH AH AD AD AC AC"),
    "may_i three sets": _mayi(3, "4S 4S 4H 4H 4D 4D 4C 4C 5S 5S 5H 5H 5D 5D 5C 5C 8S"),
    "may_i sets and a run": _mayi(4, "2S 2S 2H 2H 2D 2D 2C 3S 4S 4S 4H 4H 4D 4D 4C KD AS"),
}

# Two May I? options let play reach far longer lists (MI-CON-2: sets of any size;
# two penalty cards, MI-BUY-2, 20-card hands): LegalMoves answers them a page at a time.
PAGED: dict[str, str] = {
    "may_i three sets, any sizes": _mayi(
        3, "4S 4S 4H 4H 4D 4D 4C 4C 5S 5S 5H 5H 5D 5D 5C 5C 8S", "contract_exact_sizes=false"),
    "may_i three sets, two penalty cards": _mayi(
        3, "4S 4S 4H 4H 4D 4D 4C 4C 5S 5S 5H 5H 5D 5D 5C 5C 8S 8H 8D 8C",
        "buy_penalty_cards=2"),
}
