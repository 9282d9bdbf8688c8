// The web table's words in English and Russian. Card faces (10♥, Q♠) are the same in
// both languages, as in the move notation; card names (for screen readers and tooltips)
// and rule terms follow the client's Russian rules: сброс (the discard pile), колода
// (the stock), канаста натуральная / смешанная, джокер, двойка, красная / чёрная тройка,
// выход, первая выкладка; the service answers its refusals in the same language
// (Accept-Language).

export const LANGUAGES = ["en", "ru"];

const SUIT_FACES = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_FACES = { T: "10" };

/** A card's face: rank and suit symbol (10♥), "Jk" for a joker. */
export function face(code) {
  if (code === "JK") return "Jk";
  return (RANK_FACES[code[0]] ?? code[0]) + SUIT_FACES[code[1]];
}

/** Card faces joined by spaces. */
export const faces = (codes) => codes.map(face).join(" ");

// A face in a sentence (10♥, Jk), and a run of them separated by spaces ("5♠ 5♠ 2♦")
const FACE_TEXT = "(?:(?:10|[2-9AKQJ])[♠♥♦♣]|Jk)";
const FACE_RUN = new RegExp(`(?<![\\p{L}\\p{N}])${FACE_TEXT}(?: ${FACE_TEXT})*(?![\\p{L}\\p{N}])`, "gu");
const FACE_CODES = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
const codeOf = (shown) => (shown === "Jk" ? "JK" : (shown.length === 3 ? "T" : shown[0]) + FACE_CODES[shown.at(-1)]);

/**
 * A sentence cut at its runs of card faces, for screen readers to hear those by name: its
 * parts in order, each [text, codes] (codes: the run's cards, null for words).
 */
export function faceRuns(text) {
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(FACE_RUN)) {
    if (m.index > at) parts.push([text.slice(at, m.index), null]);
    parts.push([m[0], m[0].split(" ").map(codeOf)]);
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push([text.slice(at), null]);
  return parts;
}

const NAMES = {
  en: {
    ranks: { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
      6: "six", 5: "five", 4: "four", 3: "three", 2: "two" },
    suits: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
    joker: "joker",
    card: (rank, suit) => `${rank} of ${suit}`,
    // cards by their points (meldValues): a rank alone, a range of ranks, a rank's cards
    // of one colour, a list
    rank: (r) => (r === "2" ? "deuce" : NAMES.en.ranks[r]),
    range: (hi, lo) => `${RANK_FACES[hi] ?? hi} to ${RANK_FACES[lo] ?? lo}`,
    colour: (colour, r) => `${colour} ${NAMES.en.ranks[r]}${NAMES.en.ranks[r].endsWith("x") ? "es" : "s"}`,
    and: (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`),
  },
  ru: {
    ranks: { A: "туз", K: "король", Q: "дама", J: "валет", T: "десятка", 9: "девятка",
      8: "восьмёрка", 7: "семёрка", 6: "шестёрка", 5: "пятёрка", 4: "четвёрка", 3: "тройка",
      2: "двойка" },
    suits: { S: "пик", H: "червей", D: "бубен", C: "треф" },
    joker: "джокер",
    card: (rank, suit) => `${rank} ${suit}`,
    rank: (r) => NAMES.ru.ranks[r],
    // "от короля до восьмёрки": the genitive
    range: (hi, lo) => `от ${RU_GENITIVE[hi]} до ${RU_GENITIVE[lo]}`,
    colour: (colour, r) => `${colour === "black" ? "чёрные" : "красные"} ${RU_PLURAL[r]}`,
    and: (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} и ${items.at(-1)}`),
  },
};

const RU_GENITIVE = { A: "туза", K: "короля", Q: "дамы", J: "валета", T: "десятки", 9: "девятки",
  8: "восьмёрки", 7: "семёрки", 6: "шестёрки", 5: "пятёрки", 4: "четвёрки", 3: "тройки", 2: "двойки" };
const RU_PLURAL = { A: "тузы", K: "короли", Q: "дамы", J: "валеты", T: "десятки", 9: "девятки",
  8: "восьмёрки", 7: "семёрки", 6: "шестёрки", 5: "пятёрки", 4: "четвёрки", 3: "тройки", 2: "двойки" };
// Ranks from the highest, as a card code's first character
const RANKS_DOWN = "AKQJT98765432";
const COLOURS = { SC: "black", HD: "red" };

/**
 * What the cards count toward the initial-meld minimum, in words, from the game's card
 * points as ListVariants' table states them (its cardPoints: those that count toward the
 * minimum, by their points in a meld, highest first): "joker 50, ace and deuce 20, K to 8
 * 10, 7 to 4 and black threes 5". "" when none counts (May I?) or the table has none.
 */
export function meldValues(points, lang) {
  const byPoints = new Map();
  for (const p of points ?? []) {
    if (p.countsTowardMinimum && p.meld) byPoints.set(p.meld, [...(byPoints.get(p.meld) ?? []), ...(p.cards ?? [])]);
  }
  const n = NAMES[lang];
  return [...byPoints].map(([meld, codes]) => `${n.and(cardParts(codes).map((part) => partWords(part, n)))} ${meld}`).join(", ");
}

// Some cards as the parts a sentence names, highest first: the joker, whole ranks (three in
// a row or more as a range), a rank's cards of one colour (black threes), other cards.
function cardParts(codes) {
  const byRank = new Map();
  for (const code of codes) {
    const r = code === "JK" ? "JK" : code[0];
    byRank.set(r, [...(byRank.get(r) ?? []), code]);
  }
  const parts = byRank.has("JK") ? [{ joker: true }] : [];
  let run = [];
  const flush = () => {
    parts.push(...(run.length >= 3 ? [{ from: run[0], to: run.at(-1) }] : run.map((r) => ({ rank: r }))));
    run = [];
  };
  for (const r of RANKS_DOWN) {
    const suits = [...new Set((byRank.get(r) ?? []).map((code) => code[1]))].sort((a, b) => "SHDC".indexOf(a) - "SHDC".indexOf(b)).join("");
    if (suits.length === 4) {
      run.push(r);
      continue;
    }
    flush();
    if (COLOURS[suits]) parts.push({ colour: COLOURS[suits], rank: r });
    else if (suits) parts.push({ cards: byRank.get(r) });
  }
  flush();
  return parts;
}

function partWords(part, n) {
  if (part.joker) return n.joker;
  if (part.from) return n.range(part.from, part.to);
  if (part.colour) return n.colour(part.colour, part.rank);
  if (part.rank) return n.rank(part.rank);
  return faces(part.cards);
}

/** A card's name in words ("ten of hearts", "десятка червей"). */
export function cardName(code, lang) {
  const n = NAMES[lang];
  return code === "JK" ? n.joker : n.card(n.ranks[code[0]], n.suits[code[1]]);
}

/** A phrase with its first letter in lower case, to follow a dash. */
const lowerFirst = (text) => text.charAt(0).toLocaleLowerCase() + text.slice(1);

/** Russian plural: one (1, 21), few (2-4, 22-24), many (0, 5-20, 25...). */
function ruPlural(n, one, few, many) {
  const d = n % 10;
  const dd = n % 100;
  if (d === 1 && dd !== 11) return one;
  if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return few;
  return many;
}

// What a stock draw of n cards takes, in the rules panel's draw lines
const enStockCards = (n) => (n === 1 ? "the top card" : `${n} cards`);
const ruStockCards = (n) => (n === 1 ? "верхнюю карту" : `${n} ${ruPlural(n, "карту", "карты", "карт")}`);

// Seat names around the table: seat 0 (you) sits at the bottom and the seats are numbered
// clockwise, so seat 1 is on your left. Play goes round the seats that play a hand in the
// order of the view's seatsInPlay: clockwise, but not in five players' third hand (0, 3, 2,
// 4: the sides in turn, CL-P5-3), which the page says (orderOfPlay). By player count, the
// others' places.
const PLACES = {
  2: ["north"],
  3: ["west", "east"],
  4: ["west", "north", "east"],
  5: ["west", "northwest", "northeast", "east"],
  6: ["west", "northwest", "north", "northeast", "east"],
};

/** Where each seat sits: "you" for seat 0, then compass places clockwise. */
export function places(players) {
  return ["you", ...(PLACES[players] ?? [])];
}

/**
 * The seats that play a hand in their order of play (a view's seatsInPlay), from `you` when
 * you play, where it is not their order round the table (clockwise, those out skipped): five
 * players' third hand plays 0, 3, 2, 4, the sides in turn (CL-P5-3). [] where it is. Shared
 * with the reference host's seat page.
 */
export function playOrder(order, you) {
  const from = (seat) => [...order.slice(order.indexOf(seat)), ...order.slice(0, order.indexOf(seat))];
  const round = from(Math.min(...order));
  if (round.every((seat, i) => i === 0 || seat > round[i - 1])) return [];
  return from(order.includes(you) ? you : order[0]);
}

/**
 * A canasta's name by its kind (a view's canasta kind: natural, mixed, samba, escalera,
 * bolivia; an older service's says natural or mixed alone, by its canasta). Shared with the
 * reference host's seat page.
 */
export function canastaName(kind, lang) {
  const w = TEXT[lang];
  return w.canastaKind[kind] ?? w.canasta[kind] ?? kind;
}

// Each language's words. A value is a string or a function of the parameters named.
// Sentences about a player take `who` (a seat's name) and `you` (whether it is you):
// Russian verbs agree with "Вы" (взяли) or a compass name (взял).
export const TEXT = {
  en: {
    title: "Canasta",
    subtitle: "against bots",
    language: "Language",
    game: "Game",
    players: "Players",
    bots: "Bots",
    greedy: "greedy",
    expert: "expert",
    random: "random",
    seed: "Seed",
    seedRandom: "random",
    // the seed field's errors, told before any call: a uint64 in decimal
    seedDigits: "The seed is a whole number: type digits 0–9 only.",
    seedTooBig: "The seed is at most 18446744073709551615 (2^64 − 1).",
    newGame: "New game",
    // the chosen game's rule options (GET /v1/variants), under the form
    rulesOptions: "Rule options",
    // an integer option whose default depends on the table (classic's target_score)
    optionDefault: "default",
    // what an option the service refused takes, from GET /v1/variants, after its refusal
    optionInt: (name, min, max, words) => `${name} takes a whole number from ${min} to ${max}${words ? ` or one of: ${words}` : ""}.`,
    optionChoice: (name, choices) => `${name} takes one of: ${choices}.`,
    idle: "Choose a game and press “New game”.",
    // "New game" pressed, its deal not answered yet
    dealing: "Dealing a new game…",
    // a reload resumes the game this tab kept, unless the server refuses it
    resuming: "Resuming your game…",
    notResumed: "Your game could not be resumed: the server refused it. A new game is dealt.",
    you: "You",
    west: "West",
    northwest: "North-west",
    north: "North",
    northeast: "North-east",
    east: "East",
    and: " & ",
    partner: "partner",
    opponent: "opponent",
    // cutthroat for three, once someone has taken the pile (CL-P3-2): the seat that plays
    // alone, and, when you do, each of the two others, partners against you
    loneHand: "opponent, plays alone",
    pairedOpponent: (who) => `opponent, partner of ${who}`,
    dealer: "dealer",
    // your own seat's badge when you deal (beside "Your hand": the seats around show "dealer")
    youDeal: "you deal",
    toPlay: "to play",
    answering: "answering",
    cards: (n) => `${n} ${n === 1 ? "card" : "cards"}`,
    // a seat dealt out of this hand (five players: one sits out each hand, CL-P5-2; six in
    // rotation: two, CL-P6-11)
    sitsOut: "sits this hand out",
    // the seats that play a hand in the order they play, where it is not round the table
    orderOfPlay: (names) => `Order of play this hand: ${names.join(" → ")}`,
    // after a side's seats that play the hand, in its melds' heading: those that sit it out
    seatsOut: (who, you, n) => (you ? "you sit this hand out" : `${who} ${n === 1 ? "sits" : "sit"} this hand out`),
    // your seat dealt out of the hand: the status line's first sentence while the bots play
    // it, and what stands in place of your cards
    youSitOut: "You sit this hand out.",
    handSitsOut: "No cards for you this hand: you sit it out, with no turn in it.",
    phase: {
      draw: "Your turn: draw from the stock or take the discard pile.",
      draw_may_i: "Your turn: draw from the stock or take the card just discarded.",
      // (only the moves listed: a pile that cannot be taken is not offered)
      drawStock: "Your turn: draw from the stock.",
      draw_exhausted: "Your turn: the stock is empty. Take the discard pile, or the hand ends.",
      exhaustedTake: "Your turn: the stock is empty. Take the discard pile.",
      exhaustedLeave: "Your turn: the stock is empty and the discard pile cannot be taken. Leave it: the hand ends.",
      meld: "Your turn: meld if you like, then discard a card.",
      buy_window: "May I? Buy the discard, or pass.",
      other: "Your move.",
    },
    thinking: (who) => `${who} is playing…`,
    sending: "Your move is on its way…",
    // May I?: a candidate of the buy window, out of turn
    buying: (who, top) => `${who} is deciding whether to buy ${top}…`,
    // your partner's question "may I go out?", and your own while your partner answers it
    partnerAsks: (who) => `Your partner ${who} asks: “May I go out?”`,
    answeringYou: (who) => `${who} is answering your question “May I go out?”…`,
    // the hand ended, its score not back yet (whether the game is over is not known)
    scoring: "Counting the hand's scores…",
    // the result is beside the table on a desktop, below it on a phone: named by its heading
    handOver: "The hand is over. The scores are under “Hand result”; press “Next hand” to go on.",
    gameOver: "The game is over. The scores are under “Game result”; press “New game” to play again.",
    stock: "Stock",
    pile: "Discard pile",
    empty: "empty",
    frozen: "frozen",
    frozenForYou: "frozen for your side",
    noMelds: "no melds yet",
    redThrees: "Red threes",
    // the table's heading, heard alone: the sides' melds (h3) come under it, before "Your hand"
    tableTitle: "Card table",
    melds: "Melds",
    canasta: { natural: "natural canasta", mixed: "mixed canasta" },
    canastaKind: { samba: "samba", escalera: "escalera", bolivia: "bolivia" },
    labelTitle: (label) => `label ${label}: typed moves name this meld by it`,
    meldOf: (who, you, n) => (you ? `your meld ${n}` : `${who}'s meld ${n}`),
    // May I?: a meld's number on the table (from 1 in its side, as meldOf counts), and its name
    meldMark: (n) => `#${n}`,
    meldName: (n) => `meld ${n}`,
    yourHand: "Your hand",
    drawn: "just drawn",
    selectHelp: "Select cards by clicking or tapping them (or ←/→ and Space), then choose a move.",
    selected: (list) => `Selected: ${list}`,
    clear: "Clear selection",
    noMove: "These cards make no move now.",
    moreCards: (n) => `Select more cards: these are part of ${n} ${n === 1 ? "move" : "moves"}.`,
    selectToTake: "To take the discard pile, select the cards that meld its top card.",
    selectToPlay: "Select cards to meld, add to a meld or discard.",
    staged: (list) => `Melded this turn (undo is possible until you discard): ${list}`,
    // a staged addition in that list
    addedTo: (cards, label) => `${cards} on ${label}`,
    hint: "Hint",
    // a move's words after "Hint —", in lower case: "Hint — take the pile: 9♥ onto 9"
    // (after "Hint:" it read "Hint: Take the pile: 9♥ onto 9", a colon in a colon)
    hintIs: (text) => `Hint — ${lowerFirst(text)}`,
    rulesNow: "Rules now",
    scores: "Scores",
    side: "Side",
    match: "Match",
    minimum: "Minimum",
    nextMinimum: (n) => `next hand: ${n} to open`,
    buysLeft: "Buys left",
    noLimit: "no limit",
    target: (n) => `The match is played to ${n}.`,
    // deal n of the game's m; past m only after a tie with tie_policy play_on (SV-GAME-1)
    deal: (n, m) => (n <= m ? `Deal ${n} of ${m}.` : `Deal ${n}: another after a tie.`),
    // the result panel's heading, at a hand's end and at the game's
    result: "Hand result",
    gameResult: "Game result",
    // the result's corner (heard alone): what its rows count, for each side's column
    pointsHead: "Points",
    rows: {
      base: "Melded cards", canastas: "Canastas", goingOut: "Going out", redThrees: "Red threes",
      inHand: "Cards in hand", penalties: "Penalties", total: "Hand total", cumulative: "Match total",
    },
    // a side's canastas of one kind in the result, and their bonuses: "samba 2 (3000)",
    // "natural 0"; natural and mixed canastas are named short there
    canastaTally: (name, n, bonus) => `${name} ${n}${n ? ` (${bonus})` : ""}`,
    canastaShort: { natural: "natural", mixed: "mixed" },
    wentOut: (who, you, concealed) => `${who} went out${concealed ? " concealed" : ""}.`,
    stockRanOut: "The stock ran out.",
    nextHand: "Next hand",
    // n: the seats of the winning side ("West wins", "West & East win")
    win: (who, you, n) => (you ? "Game over: you win!" : `Game over: ${who} ${n === 1 ? "wins" : "win"}.`),
    draw: "Game over: a draw.",
    log: "What happened",
    allMoves: "All moves",
    typeMove: "Or type a move",
    typePlaceholder: "e.g. discard 4D, meld KS KH KD, take",
    play: "Play",
    footer: "Plays over the public REST API only. Your moves present your seat's token; the bots' moves present the host token, which this page holds only because it is a self-contained demo.",
    dealt: (n, who, you) => `Hand ${n} dealt by ${you ? "you" : who}.`,
    // the page's own errors (the service words its refusals itself)
    unreachable: "The server cannot be reached.",
    // a call's deadline passed (deadline.js)
    timedOut: "The server did not answer in time.",
    failed: (status) => `The server answered with an error (HTTP ${status}).`,
    notYourView: (seats) => `The server's answer holds the views of seats ${seats}, not yours alone: it is not shown.`,
    // a refusal shown before a change of language that the server no longer words the same
    refused: "The server refused the request.",
    // a failed call of the bots' turn or the hand's score stops the game until "Try again"
    retry: "Try again",
    stalled: "The game has stopped at the error below. Press “Try again” to go on.",
    // what a move would do (buttons)
    act: {
      draw: "Draw from the stock",
      takeWith: (cards) => `Take the pile with ${cards}`,
      showing: (cards) => `, showing ${cards}`,
      takeOnto: (top, label) => `Take the pile: ${top} onto ${label}`,
      takeTop: (top) => `Take ${top} from the discard pile`,
      meld: (cards) => `Meld ${cards}`,
      add: (cards, label) => `Add ${cards} to ${label}`,
      merge: (a, b) => `Merge ${b} into ${a}`,
      discard: (card) => `Discard ${card}`,
      outWith: (card) => `Go out: discard ${card}`,
      out: "Go out",
      ask: "Ask partner: may I go out?",
      yes: "Yes, you may go out",
      no: "No, you may not go out",
      undo: "Undo the last meld",
      decline: "Leave the pile (the hand ends)",
      end: "End the hand",
      buy: (top) => `Buy ${top}`,
      pass: "Pass",
      down: (groups) => `Go down: ${groups}`,
      layoff: (card, meld) => `Lay off ${card} on ${meld}`,
    },
    // what a player did (the log)
    did: {
      drew: (who, you, n, cards) => (cards ? `${who} drew ${cards}` : `${who} drew ${n === 1 ? "a card" : `${n} cards`}`),
      // after "drew": the cards a first canasta draws in Bolivia with sevens (SV-BONUS-1)
      canastaBonus: ", the first canasta's bonus",
      choseStock: (who, _you) => `${who} chose the stock`,
      tookWith: (who, you, n, cards) => `${who} took the pile (${n} ${n === 1 ? "card" : "cards"}) with ${cards}`,
      tookOnto: (who, you, n, top, label) => `${who} took the pile (${n} ${n === 1 ? "card" : "cards"}): ${top} onto ${label}`,
      tookTop: (who, you, top) => `${who} took ${top} from the discard pile`,
      showing: (cards) => `, showing ${cards}`,
      melded: (who, you, cards) => `${who} melded ${cards}`,
      added: (who, you, cards, label) => `${who} added ${cards} to ${label}`,
      merged: (who, you, a, b) => `${who} merged ${b} into ${a}`,
      discarded: (who, you, card) => `${who} discarded ${card}`,
      wentOutWith: (who, you, card) => `${who} went out, discarding ${card}`,
      wentOut: (who, _you) => `${who} went out`,
      asked: (who, you) => `${who} asked ${you ? "your" : "their"} partner: “May I go out?”`,
      yes: (who, _you) => `${who} answered yes`,
      no: (who, _you) => `${who} answered no`,
      undid: (who, _you) => `${who} took back a meld`,
      declined: (who, _you) => `${who} left the pile: the hand ends`,
      ended: (who, _you) => `${who} ended the hand`,
      // MI-BUY-2: the penalty card(s) named to the buyer alone, counted to the others
      bought: (who, _you, top, n, cards) => `${who} bought ${top ? `${top} from the discard pile` : "the discard"}` + (cards ? ` and drew ${cards} as a penalty`
        : n ? ` and drew ${n === 1 ? "a penalty card" : `${n} penalty cards`}` : ""),
      passed: (who, _you) => `${who} passed`,
      down: (who, you, groups) => `${who} went down with ${groups}`,
      laidOff: (who, you, card, meld) => `${who} laid off ${card} on ${meld}`,
      redThrees: (who, you, cards, n) => `${who} laid ${n === 1 ? "a red three" : "red threes"} ${cards}`,
      other: (who, you, text) => `${who} played ${text}`,
    },
    rules: {
      draw: (n) => `Draw ${enStockCards(n)} from the stock, or take the whole discard pile.`,
      // May I?: the pile is never taken, only the card just discarded on it
      drawMayI: (n) => `Draw ${enStockCards(n)} from the stock, or take the card just discarded: only the top card of the pile, never the whole pile.`,
      // no take listed: a pile frozen for you, blocked, or no pair for its top (May I?: no fresh discard)
      drawStock: (n) => `Draw ${enStockCards(n)} from the stock.`,
      frozenUnopened: "The pile is frozen for your side until its first meld: only a natural pair of the top card (with your first meld reaching the minimum) takes it.",
      frozenWild: "The pile is frozen for everyone: a wild card (joker or deuce) or a red three lies in it. Only a natural pair of the top card takes it.",
      blackThree: "A black three on top blocks the pile: nobody may take it now.",
      wildTop: "A wild card on top blocks the pile: nobody may take it now.",
      sambaPile: "The pile is taken with a natural pair of its top card or, when it is not frozen for your side, by adding the top card alone to one of your unfinished melds.",
      // values: what the cards count (meldValues), "" unsaid
      minimum: (n, values = "") => `Your side has not melded yet: its first meld must count at least ${n} points${values ? ` (${values})` : ""}.`,
      opened: "Your side has melded: any meld or addition is fine now.",
      meld: "Meld or add cards now (select them in your hand), then discard one card to end your turn.",
      undo: "Melds laid this turn can be taken back with “Undo the last meld” until you discard.",
      // `escalera`: one of them must be an escalera (Bolivia with bolivia.going_out=hoyle, BO-OUT-1)
      goOut: (n, escalera) => `To go out, your side needs ${n === 1 ? "a canasta (a meld of seven cards or more)" : `${n} canastas (melds of seven cards or more)`}${escalera ? ", one of them an escalera (a sequence of seven in a suit)" : ""}.`,
      noGoingOut: "Nobody goes out in this game: melding must leave you at least two cards, and your discard one; the deal ends once the stock is used up.",
      ask: "“Ask partner: may I go out?” puts the question to your partner. The answer binds you: after yes you must go out this turn if you can, after no you may not.",
      permission: "Your partner asks whether they may go out. Yes obliges them to go out this turn if they can; no forbids going out this turn.",
      // your partner's answer to your question, for the rest of your turn
      saidYes: "Your partner said yes: you must go out this turn if you can.",
      saidNo: "Your partner said no: you may not go out this turn.",
      // the stock gone: a take and leaving the pile listed, a take alone, leaving it alone
      exhausted: "The stock is empty: take the discard pile, or leave it and the hand ends.",
      exhaustedTake: "The stock is empty: you must take the discard pile.",
      exhaustedLeave: "The stock is empty and the discard pile cannot be taken: leaving it ends the hand.",
      wilds: (n) => `A meld of one rank holds at least two natural cards and at most ${n === 1 ? "one wild card (a joker or a deuce)" : `${n} wild cards (jokers and deuces)`}.`,
      wildMelds: "Wild cards also meld alone: three to seven of them, seven make a bolivia. Only wild cards join such a meld.",
      sequences: (seven) => `Sequences meld too: three to seven cards of one suit in a row (4 up to the ace), no wild cards. Seven make a closed ${seven}. The label (S:5-9) is what typed moves use.`,
      bots: "The bots are playing; their moves appear in the log.",
      sittingOut: "You sit this hand out: the bots play it; their moves appear in the log.",
      // the bots' turn or the hand's score stopped at an error (the status line's "stalled")
      stalled: "The game has stopped at an error: press “Try again” above the table to go on.",
      handOver: "The hand is over: the scores are under “Hand result”. Press “Next hand” when you are ready.",
      // May I?: the deal's contract (sets: groups of one rank; sequences: runs of one suit)
      contract: (sets, runs) => `This deal's contract: ${[
        sets ? `${sets} ${sets === 1 ? "set" : "sets"}` : "",
        runs ? `${runs} ${runs === 1 ? "sequence" : "sequences"}` : "",
      ].filter(Boolean).join(" and ")}. Each player goes down with it once, then lays off.`,
      buys: (n) => (n < 0 ? "You may buy the discard out of turn without limit."
        : n === 0 ? "You have no buys left this deal."
        : `You may buy the discard out of turn ${n} more ${n === 1 ? "time" : "times"} this deal.`),
      gameOver: "The game is over: the scores are under “Game result”. Press “New game” to play again.",
    },
  },
  ru: {
    title: "Канаста",
    subtitle: "против ботов",
    language: "Язык",
    game: "Игра",
    players: "Игроки",
    bots: "Боты",
    greedy: "жадные",
    expert: "сильные",
    random: "случайные",
    seed: "Тасовка №",
    seedRandom: "случайная",
    seedDigits: "Номер тасовки — целое число: вводите только цифры 0–9.",
    seedTooBig: "Номер тасовки — не больше 18446744073709551615 (2^64 − 1).",
    newGame: "Новая игра",
    rulesOptions: "Правила партии",
    optionDefault: "по умолчанию",
    optionInt: (name, min, max, words) => `${name}: целое число от ${min} до ${max}${words ? ` или одно из значений ${words}` : ""}.`,
    optionChoice: (name, choices) => `${name}: одно из значений ${choices}.`,
    idle: "Выберите игру и нажмите «Новая игра».",
    dealing: "Раздаём карты новой игры…",
    resuming: "Возвращаемся к вашей игре…",
    notResumed: "Вашу игру продолжить нельзя: сервер её не принял. Начата новая игра.",
    you: "Вы",
    west: "Запад",
    northwest: "Северо-запад",
    north: "Север",
    northeast: "Северо-восток",
    east: "Восток",
    and: " и ",
    partner: "партнёр",
    opponent: "противник",
    loneHand: "противник, играет один",
    pairedOpponent: (who) => `противник, в паре с игроком ${who}`,
    dealer: "сдаёт",
    youDeal: "вы сдаёте",
    toPlay: "ходит",
    answering: "отвечает",
    cards: (n) => `${n} ${ruPlural(n, "карта", "карты", "карт")}`,
    sitsOut: "пропускает раздачу",
    orderOfPlay: (names) => `Порядок хода в этой раздаче: ${names.join(" → ")}`,
    seatsOut: (who, you, n) => (you ? "вы пропускаете раздачу" : `${who} ${n === 1 ? "пропускает" : "пропускают"} раздачу`),
    youSitOut: "Вы пропускаете эту раздачу.",
    handSitsOut: "В этой раздаче у вас нет карт: вы её пропускаете, ходов в ней у вас нет.",
    phase: {
      // (a stock draw takes two cards in some games: no number here, as in English)
      draw: "Ваш ход: возьмите из колоды или весь сброс.",
      draw_may_i: "Ваш ход: возьмите карту из колоды или только что сброшенную карту.",
      drawStock: "Ваш ход: возьмите из колоды.",
      draw_exhausted: "Ваш ход: колода кончилась. Возьмите сброс, иначе раздача окончена.",
      exhaustedTake: "Ваш ход: колода кончилась. Возьмите сброс.",
      exhaustedLeave: "Ваш ход: колода кончилась, а сброс взять нельзя. Не берите его: раздача окончится.",
      meld: "Ваш ход: выкладывайте комбинации, затем сбросьте карту.",
      // (the discarded card alone: "сброс" is the whole pile)
      buy_window: "«Можно?» Купите карту из сброса или скажите «пас».",
      other: "Ваш ход.",
    },
    thinking: (who) => `${who} ходит…`,
    sending: "Ваш ход отправляется…",
    buying: (who, top) => `${who} решает, купить ли ${top}…`,
    partnerAsks: (who) => `Ваш партнёр ${who} спрашивает: «Можно выйти?»`,
    answeringYou: (who) => `${who} отвечает на ваш вопрос «Можно выйти?»…`,
    scoring: "Подсчитываем очки раздачи…",
    handOver: "Раздача окончена. Счёт — в разделе «Итог раздачи»; чтобы продолжить, нажмите «Следующая раздача».",
    gameOver: "Игра окончена. Счёт — в разделе «Итог игры»; чтобы сыграть ещё, нажмите «Новая игра».",
    stock: "Колода",
    pile: "Сброс",
    empty: "пуст",
    frozen: "заморожен",
    frozenForYou: "заморожен для вашей стороны",
    noMelds: "комбинаций пока нет",
    redThrees: "Красные тройки",
    tableTitle: "Игровой стол",
    melds: "Комбинации",
    canasta: { natural: "натуральная канаста", mixed: "смешанная канаста" },
    canastaKind: { samba: "самба", escalera: "эскалера", bolivia: "боливия" },
    labelTitle: (label) => `метка ${label}: по ней комбинацию называют ходы, введённые текстом`,
    meldOf: (who, you, n) => (you ? `вашей комбинации ${n}` : `комбинации ${n} (${who})`),
    meldMark: (n) => `№\u00a0${n}`,
    meldName: (n) => `комбинация ${n}`,
    yourHand: "Ваши карты",
    drawn: "только что взята",
    selectHelp: "Выберите карты щелчком или касанием (или ←/→ и пробелом), затем ход.",
    selected: (list) => `Выбрано: ${list}`,
    clear: "Снять выбор",
    noMove: "С этими картами сейчас нет хода.",
    moreCards: (n) => `Выберите ещё карты: это часть ${n} ${ruPlural(n, "хода", "ходов", "ходов")}.`,
    selectToTake: "Чтобы взять сброс, выберите карты, которые составят комбинацию с его верхней картой.",
    selectToPlay: "Выберите карты, чтобы выложить комбинацию, добавить к комбинации или сбросить.",
    staged: (list) => `Выложено в этот ход (можно отменить до сброса): ${list}`,
    addedTo: (cards, label) => `${cards} к ${label}`,
    hint: "Подсказка",
    hintIs: (text) => `Подсказка — ${lowerFirst(text)}`,
    rulesNow: "Правила сейчас",
    scores: "Счёт",
    side: "Сторона",
    match: "Партия",
    minimum: "Минимум",
    nextMinimum: (n) => `следующая раздача: ${n} на первую выкладку`,
    buysLeft: "Осталось покупок",
    noLimit: "без ограничений",
    target: (n) => `Партия идёт до ${n} ${ruPlural(n, "очка", "очков", "очков")}.`,
    deal: (n, m) => (n <= m ? `Раздача ${n} из ${m}.` : `Раздача ${n}: ещё одна после ничьей.`),
    result: "Итог раздачи",
    gameResult: "Итог игры",
    pointsHead: "Очки",
    rows: {
      base: "Карты в комбинациях", canastas: "Канасты", goingOut: "Выход", redThrees: "Красные тройки",
      inHand: "Карты на руках", penalties: "Штрафы", total: "За раздачу", cumulative: "Всего в партии",
    },
    canastaTally: (name, n, bonus) => `${name} ${n}${n ? ` (${bonus})` : ""}`,
    canastaShort: { natural: "натур.", mixed: "смеш." },
    wentOut: (who, you, concealed) => `${who} ${you ? "вышли" : "вышел"}${concealed ? " с рук" : ""}.`,
    stockRanOut: "Колода кончилась.",
    nextHand: "Следующая раздача",
    win: (who, you, n) => (you ? "Игра окончена: вы победили!" : `Игра окончена: ${n === 1 ? "победил" : "победили"} ${who}.`),
    draw: "Игра окончена: ничья.",
    log: "Что произошло",
    allMoves: "Все ходы",
    typeMove: "Или введите ход",
    typePlaceholder: "например: discard 4D, meld KS KH KD, take",
    play: "Сыграть",
    footer: "Играет только через открытый REST API. Ваши ходы идут с токеном вашего места; ходы ботов — с токеном хозяина игры, который эта страница держит лишь потому, что она самостоятельная демонстрация.",
    dealt: (n, who, you) => (you ? `Раздача ${n}, сдаёте вы.` : `Раздача ${n}, сдаёт ${who}.`),
    unreachable: "Сервер недоступен.",
    timedOut: "Сервер не ответил вовремя.",
    failed: (status) => `Сервер ответил ошибкой (HTTP ${status}).`,
    notYourView: (seats) => `В ответе сервера виды мест ${seats}, а не только вашего: он не показан.`,
    refused: "Сервер отклонил запрос.",
    retry: "Повторить",
    stalled: "Игра остановилась на ошибке ниже. Нажмите «Повторить», чтобы продолжить.",
    act: {
      draw: "Взять из колоды",
      takeWith: (cards) => `Взять сброс: ${cards}`,
      showing: (cards) => `; показать: ${cards}`,
      takeOnto: (top, label) => `Взять сброс: ${top} в комбинацию ${label}`,
      takeTop: (top) => `Взять из сброса: ${top}`,
      meld: (cards) => `Выложить: ${cards}`,
      add: (cards, label) => `Добавить к ${label}: ${cards}`,
      merge: (a, b) => `Объединить ${b} с ${a}`,
      discard: (card) => `Сбросить: ${card}`,
      outWith: (card) => `Выйти, сбросив: ${card}`,
      out: "Выйти",
      ask: "Спросить партнёра: можно выйти?",
      yes: "Да, выходите",
      no: "Нет, не выходите",
      undo: "Отменить последнюю выкладку",
      decline: "Не брать сброс (раздача окончится)",
      end: "Закончить раздачу",
      buy: (top) => `Купить: ${top}`,
      pass: "Пас",
      down: (groups) => `Выложить контракт: ${groups}`,
      layoff: (card, meld) => `Доложить к ${meld}: ${card}`,
    },
    did: {
      drew: (who, you, n, cards) => (cards ? `${who} ${you ? "взяли" : "взял"} из колоды ${cards}`
        : `${who} ${you ? "взяли" : "взял"} из колоды ${n === 1 ? "карту" : `${n} ${ruPlural(n, "карту", "карты", "карт")}`}`),
      canastaBonus: " — премия за первую канасту",
      choseStock: (who, you) => `${who} ${you ? "выбрали" : "выбрал"} колоду`,
      tookWith: (who, you, n, cards) => `${who} ${you ? "взяли" : "взял"} сброс (${n} ${ruPlural(n, "карта", "карты", "карт")}) с ${cards}`,
      tookOnto: (who, you, n, top, label) => `${who} ${you ? "взяли" : "взял"} сброс (${n} ${ruPlural(n, "карта", "карты", "карт")}): ${top} в комбинацию ${label}`,
      tookTop: (who, you, top) => `${who} ${you ? "взяли" : "взял"} из сброса ${top}`,
      showing: (cards) => `, показав ${cards}`,
      melded: (who, you, cards) => `${who} ${you ? "выложили" : "выложил"} ${cards}`,
      added: (who, you, cards, label) => `${who} ${you ? "добавили" : "добавил"} ${cards} к ${label}`,
      merged: (who, you, a, b) => `${who} ${you ? "объединили" : "объединил"} ${b} с ${a}`,
      discarded: (who, you, card) => `${who} ${you ? "сбросили" : "сбросил"} ${card}`,
      wentOutWith: (who, you, card) => `${who} ${you ? "вышли" : "вышел"}, сбросив ${card}`,
      wentOut: (who, you) => `${who} ${you ? "вышли" : "вышел"}`,
      asked: (who, you) => `${who} ${you ? "спросили" : "спросил"} партнёра: «Можно выйти?»`,
      yes: (who, you) => `${who} ${you ? "ответили" : "ответил"} «да»`,
      no: (who, you) => `${who} ${you ? "ответили" : "ответил"} «нет»`,
      undid: (who, you) => `${who} ${you ? "отменили" : "отменил"} выкладку`,
      declined: (who, you) => `${who} не ${you ? "стали" : "стал"} брать сброс: раздача окончена`,
      ended: (who, you) => `${who} ${you ? "закончили" : "закончил"} раздачу`,
      bought: (who, you, top, n, cards) => `${who} ${you ? "купили" : "купил"} ${top || "карту"} из сброса` + (!n ? ""
        : ` и ${you ? "взяли" : "взял"} ${cards ? `${ruPlural(n, "штрафную карту", "штрафные карты", "штрафные карты")} ${cards}`
          : n === 1 ? "штрафную карту" : `${n} ${ruPlural(n, "штрафную карту", "штрафные карты", "штрафных карт")}`}`),
      passed: (who, you) => `${who} ${you ? "спасовали" : "спасовал"}`,
      down: (who, you, groups) => `${who} ${you ? "выложили" : "выложил"} контракт: ${groups}`,
      laidOff: (who, you, card, meld) => `${who} ${you ? "доложили" : "доложил"} ${card} к ${meld}`,
      redThrees: (who, you, cards, n) => `${who} ${you ? "выложили" : "выложил"} ${n === 1 ? "красную тройку" : "красные тройки"} ${cards}`,
      other: (who, you, text) => `${who}: ${text}`,
    },
    rules: {
      draw: (n) => `Возьмите из колоды ${ruStockCards(n)} или весь сброс.`,
      drawMayI: (n) => `Возьмите из колоды ${ruStockCards(n)} или только что сброшенную карту: из сброса берут только верхнюю карту, никогда весь сброс.`,
      drawStock: (n) => `Возьмите из колоды ${ruStockCards(n)}.`,
      frozenUnopened: "Сброс заморожен для вашей стороны до её первой выкладки: взять его можно только натуральной парой к верхней карте (и первая выкладка должна набрать минимум).",
      frozenWild: "Сброс заморожен для всех: в нём лежит джокер, двойка или красная тройка. Взять его можно только натуральной парой к верхней карте.",
      blackThree: "Чёрная тройка сверху закрывает сброс: сейчас его взять нельзя.",
      wildTop: "Свободная карта сверху закрывает сброс: сейчас его взять нельзя.",
      sambaPile: "Сброс берут натуральной парой к его верхней карте или, если он не заморожен для вашей стороны, добавив одну верхнюю карту к своей незаконченной комбинации.",
      minimum: (n, values = "") => `Ваша сторона ещё не выкладывала: первая выкладка должна набрать не меньше ${n} ${ruPlural(n, "очка", "очков", "очков")}${values ? ` (${values})` : ""}.`,
      opened: "Ваша сторона уже выложилась: теперь годится любая комбинация или добавление.",
      meld: "Выкладывайте комбинации или добавляйте к ним карты (выберите их на руке), затем сбросьте одну карту — это конец хода.",
      undo: "Выложенное в этот ход можно отменить кнопкой «Отменить последнюю выкладку» до сброса.",
      goOut: (n, escalera) => `Для выхода вашей стороне нужно ${n === 1 ? "иметь канасту (комбинацию из семи и более карт)"
        : `${n} ${ruPlural(n, "канаста", "канасты", "канаст")} (комбинации из семи и более карт)`}${escalera ? ", одна из них — эскалера (секвенс из семи карт одной масти)" : ""}.`,
      noGoingOut: "В этой игре никто не выходит: после выкладки у вас должно остаться не меньше двух карт, после сброса — одна; раздача кончается, когда кончится колода.",
      ask: "«Спросить партнёра: можно выйти?» — вопрос партнёру. Ответ обязывает: после «да» вы должны выйти в этот ход, если можете, после «нет» выходить нельзя.",
      permission: "Партнёр спрашивает, можно ли ему выйти. «Да» обязывает его выйти в этот ход, если он может; «нет» запрещает выход в этот ход.",
      saidYes: "Партнёр ответил «да»: если можете выйти в этот ход, выход обязателен.",
      saidNo: "Партнёр ответил «нет»: в этот ход выходить нельзя.",
      exhausted: "Колода кончилась: возьмите сброс или откажитесь от него — тогда раздача окончится.",
      exhaustedTake: "Колода кончилась: сброс нужно взять.",
      exhaustedLeave: "Колода кончилась, а сброс взять нельзя: отказ от него заканчивает раздачу.",
      wilds: (n) => `В комбинации карт одного ранга не меньше двух натуральных карт и не больше ${n === 1 ? "одной свободной (джокера или двойки)"
        : `${n} ${ruPlural(n, "свободной", "свободных", "свободных")} (джокеров и двоек)`}.`,
      wildMelds: "Свободные карты выкладывают и отдельно: от трёх до семи, семь карт — боливия. К такой комбинации добавляют только свободные карты.",
      sequences: (seven) => `Выкладывают и секвенсы: от трёх до семи карт одной масти подряд (от четвёрки до туза), без свободных карт. Семь карт — закрытая ${seven}. Метка (S:5-9) нужна для ходов, введённых текстом.`,
      bots: "Ходят боты; их ходы появляются в списке событий.",
      sittingOut: "Вы пропускаете эту раздачу: её играют боты; их ходы появляются в списке событий.",
      stalled: "Игра остановилась на ошибке: чтобы продолжить, нажмите «Повторить» над столом.",
      handOver: "Раздача окончена: счёт — в разделе «Итог раздачи». Нажмите «Следующая раздача», когда будете готовы.",
      contract: (sets, runs) => `Контракт этой раздачи: ${[
        sets ? `${sets} ${ruPlural(sets, "группа", "группы", "групп")}` : "",
        runs ? `${runs} ${ruPlural(runs, "секвенс", "секвенса", "секвенсов")}` : "",
      ].filter(Boolean).join(" и ")}. Каждый игрок выкладывает контракт один раз, затем докладывает карты.`,
      buys: (n) => (n < 0 ? "Покупать карту из сброса не в свой ход можно без ограничений."
        : n === 0 ? "Покупок в этой раздаче у вас больше нет."
        : `Купить карту из сброса не в свой ход вы можете ещё ${n} ${ruPlural(n, "раз", "раза", "раз")} в этой раздаче.`),
      gameOver: "Игра окончена: счёт — в разделе «Итог игры». Чтобы сыграть ещё, нажмите «Новая игра».",
    },
  },
};

// The rule options' lines of doc in Russian, by option name: GET /v1/variants words them in
// English only. An option not here is labelled with its name and the service's English line
// (clients/web/README.md). The values (three_packs, rotation...) are sent as written.
export const OPTION_DOCS = {
  ru: {
    target_score: "счёт, которым кончается партия: раздача, в которой сторона его набирает, — последняя",
    tie_policy: "равный счёт в конце партии: play_on — ещё одна раздача, draw — ничья",
    canastas_to_go_out: "сколько канаст нужно для выхода",
    p2_draw_count: "сколько карт берут из колоды при двух игроках",
    p3_mode: "игра втроём: basic — каждый за себя; cutthroat — один против пары, которая складывается при первом взятии сброса",
    p6_mode: "игра вшестером: three_packs — три колоды, играют все; rotation — две колоды, каждую раздачу двое пропускают",
    p6_teams: "шесть игроков с тремя колодами: 2 стороны по три игрока или 3 стороны по два",
    penalties: "официальные штрафы",
    schedule: "контракты раздач: zioncheck5 (пять раздач), classic7 (семь раздач, в раздачах 5–7 по 12 карт) или свой список, например ss,sr,rr (s — группа, r — секвенс)",
    max_buys_per_deal: "сколько раз игрок может купить карту из сброса за раздачу; none — без ограничений",
    buy_penalty_cards: "сколько штрафных карт из колоды берёт купивший (1 или 2)",
  },
};
