// Moves as the API lists them (their text form, docs/api.md "Moves"), read for the page:
// which hand cards a move uses, and whether the cards a player selected make that move.
// Pure functions, no DOM: tests/web/moves_unit.mjs runs them under node.
//
// The engine lists a group meld by its shape (how many naturals of the rank, how many
// deuces, how many jokers) filled with the lowest copies of the hand, and accepts any
// copies for it (docs/engine.md "Canonical shapes"). So selected cards make a listed
// move when they match it card for card, where a natural card of a group matches any
// card of its rank and a wild card any wild card of its kind; the cards of a sequence,
// a discard and a lay-off keep their suits.

const CARD = /^(JK|[2-9TJQKA][SHDC])$/;

/** Whether a word of a move's text is a card code. */
export const isCard = (word) => CARD.test(word);

/** A move's text read into its kind and the hand cards it uses, in groups. Each group
 *  says whether its naturals keep their suits (`exact`). */
export function parseMove(text) {
  const words = text.trim().split(/\s+/);
  const kind = words[0];
  const move = { text, kind, groups: [], label: "", target: "", card: "" };
  const rest = text.trim().slice(kind.length).trim();
  if (kind === "meld" || kind === "down") {
    move.groups = rest.split(" / ").map((part) => group(part.split(/\s+/)));
  } else if (kind === "take") {
    const [head = "", ...extras] = rest ? rest.split(" / ") : [];
    const headWords = head === "-" ? [] : head.split(/\s+/).filter(Boolean);
    const on = headWords.indexOf("on");
    if (on >= 0) move.target = headWords[on + 1] ?? "";
    const cards = on >= 0 ? headWords.slice(0, on) : headWords;
    if (cards.length) move.groups.push(group(cards, isSequenceLabel(move.target)));
    for (const part of extras) move.groups.push(group(part.split(/\s+/)));
  } else if (kind === "add") {
    move.label = words[1] ?? "";
    move.groups = [group(words.slice(2), isSequenceLabel(move.label))];
  } else if (kind === "merge") {
    move.label = words[1] ?? "";
    move.target = words[2] ?? "";
  } else if (kind === "discard" || kind === "out") {
    move.card = words[1] ?? "";
    if (move.card) move.groups = [{ cards: [move.card], exact: true }];
  } else if (kind === "layoff") {
    move.target = words[1] ?? "";
    move.card = words[2] ?? "";
    move.groups = [{ cards: [move.card], exact: true }];
  }
  move.cards = move.groups.flatMap((g) => g.cards);
  return move;
}

/** A sequence's label names a suit and a range (`S:5-9`); a group's a rank (`K`, `K#2`). */
export const isSequenceLabel = (label) => label.includes(":");

// A group of cards: a sequence (naturals of several ranks, or added to a sequence)
// keeps its suits; a group of one rank does not.
function group(cards, sequence = false) {
  const naturals = new Set(cards.filter((c) => c !== "JK" && c[0] !== "2").map((c) => c[0]));
  return { cards, exact: sequence || naturals.size > 1 };
}

// What a card of a move asks of the card selected for it: this card ("x:9H"), any card of
// its rank ("r:9"), or any wild card of its kind ("w:JK", "w:2").
function demand(code, exact, wildDeuces) {
  if (code === "JK") return "w:JK";
  if (code[0] === "2" && wildDeuces) return "w:2";
  return exact ? `x:${code}` : `r:${code[0]}`;
}

function demands(move, wildDeuces) {
  const out = new Map();
  for (const g of move.groups) {
    for (const c of g.cards) {
      const d = demand(c, g.exact, wildDeuces);
      out.set(d, (out.get(d) ?? 0) + 1);
    }
  }
  return out;
}

// Assign selected cards to a move's demands: exact ones first (only that card fills
// one), then by rank, then wild. Returns how many selected cards found no demand and
// how many demands stayed open.
function assign(selected, move, wildDeuces) {
  const need = demands(move, wildDeuces);
  let unmatched = 0;
  const take = (key) => {
    const n = need.get(key) ?? 0;
    if (!n) return false;
    need.set(key, n - 1);
    return true;
  };
  const byRank = [];
  for (const c of selected) {
    if (c === "JK" || (c[0] === "2" && wildDeuces)) {
      if (!take(demand(c, true, wildDeuces))) unmatched++;
    } else if (!take(`x:${c}`)) {
      byRank.push(c);
    }
  }
  for (const c of byRank) if (!take(`r:${c[0]}`)) unmatched++;
  const open = [...need.values()].reduce((a, b) => a + b, 0);
  return { unmatched, open };
}

/** Whether the selected cards (codes) are exactly the hand cards of the move. */
export function makes(selected, move, wildDeuces = true) {
  if (selected.length !== move.cards.length) return false;
  const { unmatched, open } = assign(selected, move, wildDeuces);
  return unmatched === 0 && open === 0;
}

/** Whether the selected cards are some of the move's hand cards, not all of them. */
export function partOf(selected, move, wildDeuces = true) {
  if (!selected.length || selected.length >= move.cards.length) return false;
  return assign(selected, move, wildDeuces).unmatched === 0;
}

/** The listed moves the selected cards make, in the list's order. */
export function movesOf(selected, moves, wildDeuces = true) {
  return moves.filter((m) => m.cards.length && makes(selected, m, wildDeuces));
}

/** The hand's positions that hold the move's cards: the very codes the move names (the
 *  listed, canonical copies are in the hand). -1 for a card the hand lacks. */
export function positionsOf(move, hand) {
  const used = new Set();
  return move.cards.map((code) => {
    const i = hand.findIndex((c, k) => c === code && !used.has(k));
    if (i >= 0) used.add(i);
    return i;
  });
}
