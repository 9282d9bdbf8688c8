// The reference web table: one hand after another against bots, over the REST API only.
// The page keeps the sealed snapshot; it never opens it. Every answer's view of your
// seat (viewSeat) is what it renders. No build step: plain ES modules.
//
// You play by selecting cards in your hand: the page offers the listed moves those cards
// make (moves.js), written with the hand's card faces, in English or Russian (i18n.js).
//
// Credentials (docs/security.md): the calls made for you (your moves, the hint, the
// score) present seat 0's token, so the service answers them as your seat; the bots'
// moves and the next deal present the host token and ask for your view only. This one
// page holds the host token only because it is a self-contained demo (clients/web/README.md).
// It keeps the game in this tab's sessionStorage too, so that a reload resumes it (GAME_KEY).

import { callTimeout } from "./deadline.js";
import { LANGUAGES, OPTION_DOCS, TEXT, canastaName, cardName, face, faceRuns, meldValues, places, playOrder } from "./i18n.js";
import { isCard, movesOf, parseMove, partOf, positionsOf } from "./moves.js";
import { intInputMode } from "./options.js";

const params = new URLSearchParams(location.search);
const DELAY = Number(params.get("delay") ?? 400); // ms between bot moves, to follow them
// ms each call to the service is given (deadline.js: 10 s, the SDKs' default)
const TIMEOUT = callTimeout(params);
// The hint's bot: the strongest level the service offers (docs/api.md, SuggestMove).
const HINT_LEVEL = "expert";
const LANG_KEY = "canasta.lang";
// sessionStorage: this tab's game (kept), for a reload or a restored tab to resume it
const GAME_KEY = "canasta.game";

const game = {
  snapshot: "", // base64, as the API sends it
  you: 0,
  level: "greedy",
  seed: "0",
  variant: "classic",
  players: 4,
  view: null, // your SeatView
  moves: [], // your listed moves, read (moves.js)
  hostToken: "", // acts for any seat: the bots' moves and the next deal only
  seatToken: "", // your seat's: every call made for you
  busy: false,
  handOver: false,
  gameOver: false,
  score: null, // the ScoreHand answer of the hand just over
  selected: new Set(), // positions in your hand
  focus: 0, // the hand position that takes the keyboard focus
  drawn: [], // the cards you drew or took this turn (CARDS_DRAWN, PILE_TAKEN)
  hint: null, // { move, text } the hint's advice for this position
  fresh: new Set(), // "team:label" of melds the last move changed
  actor: -1, // the seat that moved last
  log: [], // what happened, newest last: entries rendered in the current language
  logged: 0, // entries ever logged
  variantNames: [],
  notice: null, // (the page's words) => a sentence the status line starts with, till your move
};

let lang = chooseLanguage();

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};
const words = () => TEXT[lang];

// The language: ?lang=, else the one chosen on this browser before, else the browser's.
function chooseLanguage() {
  const asked = params.get("lang") ?? localStorage.getItem(LANG_KEY) ?? "";
  if (LANGUAGES.includes(asked)) return asked;
  const browser = (navigator.languages ?? [navigator.language]).map((l) => l.slice(0, 2));
  return browser.find((l) => LANGUAGES.includes(l)) ?? "en";
}

// An error the page shows keeps what words it, so that a change of language writes it
// again: the page's own sentence by its words (`say`), the service's refusal by its call.
class PageError extends Error {
  constructor(say) {
    super(say(words()));
    this.say = say; // (the page's words) => its sentence
  }
}

class ApiError extends Error {
  constructor(reason, message, status, { say = null, call = null, fields = [], asked = lang } = {}) {
    super(message);
    this.reason = reason;
    this.status = status;
    // the fields the refusal names (BadRequest's violations): "options.target_score" for
    // the rule option it refused
    this.fields = fields;
    // how the error is worded again: the page's own sentence, `say(words)`, for an answer
    // that is not the service's; else the service's message (`said`) in the language it
    // was asked in (`lang`). `call`, a refusal of the service's: the refused call's { body }
    // (the game a refused option was asked for; no credential is kept with an error)
    this.say = say;
    this.call = call;
    this.said = message;
    this.lang = asked;
  }
}

// One REST call; `token` is the credential it presents (none: a spectator's call). The
// service words its refusals in the page's language. A refusal of load (429
// TOO_MANY_CALLS, or 503 from the connection cap) carries Retry-After: the call is sent
// again after that many seconds, up to RETRIES times, before the page shows the error.
// Every call of the API is pure, so sending one again is always safe. Each time it is sent
// it has TIMEOUT ms to be answered, its body read too (a server that never answers left the
// page busy for ever): then the page shows DEADLINE_EXCEEDED, as the SDKs call it.
const RETRIES = 3;
const MAX_RETRY_WAIT_S = 10;

async function api(path, body, token = "") {
  const headers = { "accept-language": lang };
  if (token) headers.authorization = `Bearer ${token}`;
  for (let tries = 0; ; tries++) {
    let resp;
    const signal = AbortSignal.timeout(TIMEOUT);
    try {
      resp = await fetch(path, body === undefined ? { headers, signal } : {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      // (the browser's reason is in English)
      throw unanswered(signal);
    }
    let data = {};
    try {
      data = await resp.json();
    } catch (err) {
      if (signal.aborted) throw unanswered(signal);
    }
    if (resp.ok) return data;
    const wait = retryAfter(resp);
    if (wait !== null && tries < RETRIES) {
      await sleep(wait * 1000);
      continue;
    }
    const error = data.error ?? {};
    const info = (error.details ?? []).find((d) => String(d["@type"]).endsWith("ErrorInfo"));
    const reason = info?.reason ?? error.status ?? "HTTP_" + resp.status;
    const violations = (error.details ?? []).find((d) => String(d["@type"]).endsWith("BadRequest"));
    const fields = (violations?.fieldViolations ?? []).map((v) => v.field ?? "");
    if (error.message) {
      throw new ApiError(reason, error.message, resp.status,
        { call: { body }, fields, asked: headers["accept-language"] });
    }
    // an answer that is not the service's (a proxy's 502 page) has no message: the page's own
    const say = (w) => w.failed(resp.status);
    throw new ApiError(reason, say(words()), resp.status, { say });
  }
}

// The page's error for a call that got no answer: the server unreachable, or too slow (the
// call's deadline passed: `signal`, its timer, aborted it).
function unanswered(signal) {
  if (signal.aborted) return new ApiError("DEADLINE_EXCEEDED", words().timedOut, 0, { say: (w) => w.timedOut });
  return new ApiError("UNAVAILABLE", words().unreachable, 0, { say: (w) => w.unreachable });
}

// The words of an error shown, in the page's language now: the page's own sentence; the
// service's refusal in its own words in the language it was asked in, else the page's
// sentence for a refusal (its reason code stays beside it). The refused call is not sent
// again for the service's words in another language: a switch of language asks for nothing
// the player did not (a deal refused was dealt again, and so at every switch).
function reworded(err) {
  if (err.say) return err.say(words());
  if (!err.call) return err.message;
  return err.lang === lang ? err.said : words().refused;
}

// The seconds a refusal of load asks the page to wait (Retry-After as delta-seconds, at
// most MAX_RETRY_WAIT_S), or null for any other answer.
function retryAfter(resp) {
  if (resp.status !== 429 && resp.status !== 503) return null;
  const text = resp.headers.get("retry-after") ?? "";
  return /^\d+$/.test(text.trim()) ? Math.min(Number(text), MAX_RETRY_WAIT_S) : null;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// --- names -------------------------------------------------------------------------------

const nameOf = (seat) => words()[places(game.players)[seat]] ?? `#${seat}`;
const sideOf = (seat) => game.view.sides.find((s) => s.seats.includes(seat));
// The side whose melds a seat lays and adds to, whose opened and frozen pile are the seat's:
// its team's, but in cutthroat for three, where the lone hand's two partners meld on the
// lower seat's side once someone has taken the pile (the view's meldSide, CL-P3-2). A view
// without meldSide (an older service) gives the team's.
const meldSideOf = (seat) => game.view.sides[(game.view.meldSide ?? [])[seat]] ?? sideOf(seat);
const mySide = () => meldSideOf(game.you);
// The seats that meld on side `i` of the view: the team's, or cutthroat's pair on the lower
// seat's side and none on the other's
function meldSeats(v, i) {
  const by = v.meldSide ?? [];
  return by.length ? [...by.keys()].filter((seat) => by[seat] === i) : v.sides[i]?.seats ?? [];
}
// "You & North"; three names: "West, North & East"
function sideName(side) {
  const names = side.seats.map(nameOf);
  return names.length > 2 ? `${names.slice(0, -1).join(", ")}${words().and}${names.at(-1)}` : names.join(words().and);
}

// A side's melds are headed by the seats that lay them this hand: "North-west & North-east
// — you sit this hand out" (classic for five and six in rotation leave seats out, and the
// side's whole name read as if they played it). The scores keep the side's whole name: its
// match total is every seat's.
function sideTitle(side, v) {
  const out = side.seats.filter((s) => !playsHand(v, s));
  if (!out.length) return sideName(side);
  const playing = sideName({ seats: side.seats.filter((s) => playsHand(v, s)) });
  const you = out.includes(game.you);
  return `${playing} — ${words().seatsOut(sideName({ seats: out }), you, out.length)}`;
}

// A May I? meld by its place, "2:1": seat 2's meld 1 (0-based) in the words of the page.
function meldRef(target) {
  const [seat, index] = target.split(":").map(Number);
  return words().meldOf(nameOf(seat), seat === game.you, index + 1);
}
// Whether deuces are wild: the game has wild cards, as the view's wildLimit says (0: none,
// May I?), where the page took them to be unless the game was May I?
const wildDeuces = () => wildLimit(game.view ?? {}) > 0;

// An image named `name` for screen readers, in place of what it shows.
function named(node, name) {
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", name);
  return node;
}

// A card for the page: its face, its name for screen readers, its code in data-card. A
// button (your hand's) is named by its content, its rank an image of the card's name and its
// suit hidden: an aria-label over the face left "9♥" shown and "nine of hearts" heard, which
// is no name with the label in it (WCAG 2.5.3, axe's label-content-name-mismatch).
function card(code, tag = "span", name = cardName(code, lang)) {
  const text = face(code);
  const rank = el("span", { className: "rank", textContent: code === "JK" ? text : text.slice(0, -1) });
  const suit = el("span", { className: "suit", textContent: code === "JK" ? "★" : text.slice(-1) });
  const node = el(tag, { className: "card", title: cardName(code, lang) }, rank, suit);
  node.dataset.card = code;
  if (code === "JK") node.classList.add("joker");
  else if (code[1] === "H" || code[1] === "D") node.classList.add("red");
  if (tag === "span") return named(node, name);
  named(rank, name);
  suit.setAttribute("aria-hidden", "true");
  return node;
}

// Text as shown, card faces and all, whose faces a screen reader says by name: each run of
// faces an image named by its cards ("Discard nine of hearts", not "Discard 9 black heart").
const spoken = (text) => faceRuns(text).map(([part, codes]) => (codes
  ? named(el("span", { textContent: part }), codes.map((c) => cardName(c, lang)).join(", ")) : part));
const say = (node, text) => node.replaceChildren(...spoken(text));

// How a card is written in a sentence: its face, or its name when read aloud.
const FACE = (code) => face(code);
const SPOKEN = (code) => cardName(code, lang);
const list = (codes, fmt) => codes.map(fmt).join(fmt === FACE ? " " : ", ");

/** What a listed move would do, in words, cards written by `fmt`. */
function describe(move, fmt = FACE) {
  const act = words().act;
  const top = game.view.pileTop ? fmt(game.view.pileTop) : "";
  const groups = () => move.groups.map((g) => list(g.cards, fmt)).join(" + ");
  switch (move.kind) {
    case "draw": return act.draw;
    case "take": {
      if (game.variant === "may_i") return act.takeTop(top); // into the hand (May I?)
      if (!move.groups.length) return act.takeOnto(top, move.target || (game.view.pileTop ?? "")[0]);
      const [head, ...extras] = move.text.includes(" - /") ? [null, ...move.groups] : move.groups;
      const shown = extras.length ? act.showing(extras.map((g) => list(g.cards, fmt)).join(" + ")) : "";
      return (head ? act.takeWith(list(head.cards, fmt)) : act.takeWith(top)) + shown;
    }
    case "meld": return act.meld(groups());
    case "add": return act.add(list(move.cards, fmt), move.label);
    case "merge": return act.merge(move.label, move.target);
    case "discard": return act.discard(fmt(move.card));
    case "out": return move.card ? act.outWith(fmt(move.card)) : act.out;
    case "buy": return act.buy(top);
    case "down": return act.down(groups());
    case "layoff": return act.layoff(fmt(move.card), meldRef(move.target));
    default: return typeof act[move.kind] === "string" ? act[move.kind] : move.text;
  }
}

/** The move's text with the hand's card faces (10♥ for TH): the move list. */
const written = (text) => text.split(" ").map((w) => (isCard(w) ? face(w) : w)).join(" ");

// --- what happened ---------------------------------------------------------------------

// A log entry; the log keeps the last 120, and counts every entry (data-count).
function note(entry) {
  game.log.push(entry);
  game.logged++;
  if (game.log.length > 120) game.log.shift();
}

// One log entry per move (with the cards drawn or taken), red threes laid, deal and end.
// Entries keep data, not text, so they are written again when the language changes.
function record(answer, before) {
  let last = null;
  for (const ev of answer.events ?? []) {
    const type = String(ev.type).replace("EVENT_TYPE_", "");
    const seat = ev.seat ?? 0;
    if (type === "MOVE_PLAYED") {
      last = { kind: "move", seat, move: ev.move, top: before?.pileTop ?? "", count: 0, cards: [] };
      note(last);
    } else if (type === "CARDS_DRAWN") {
      // an undo answers with a CARDS_DRAWN of no card: nothing was drawn
      if (!(ev.count ?? 0) && !(ev.cards ?? []).length) continue;
      // the cards are shown for your seat only (the host's answers name the bots' too)
      const mine = seat === game.you ? ev.cards ?? [] : [];
      if (seat === game.you) game.drawn.push(...mine);
      if (last && last.seat === seat && /^(draw|buy)\b/.test(last.move) && !last.count) {
        Object.assign(last, { count: ev.count ?? 0, cards: mine });
      } else if (game.variant === "bolivia_sevens" && last?.seat === seat
        && /^(meld|add|take|merge)\b/.test(last.move)) {
        // SV-BONUS-1: a first canasta draws eleven stock cards at once, told as its bonus (a
        // bare "drew 11 cards" in a melding turn read as a draw nobody made). A move draws
        // once (engine/events.py): a red three among them and the card that replaces it are
        // in this same draw (12 cards), the three then told as laid
        note({ kind: "drew", seat, count: ev.count ?? 0, cards: mine, bonus: true });
      } else {
        note({ kind: "drew", seat, count: ev.count ?? 0, cards: mine });
      }
    } else if (type === "PILE_TAKEN") {
      if (seat === game.you) game.drawn.push(...(ev.cards ?? []));
      if (last && last.seat === seat) last.count = ev.count ?? 0;
    } else if (type === "RED_THREES_LAID") {
      note({ kind: "red", seat, cards: ev.cards ?? [] });
    } else if (type === "TURN_STARTED") {
      game.drawn = [];
    } else if (type === "HAND_DEALT") {
      note({ kind: "dealt", seat, handNo: answer.views?.[0]?.handNo ?? 0 });
    } else if (type === "HAND_OVER" && !(last?.seat === seat && /^out\b/.test(last.move))) {
      note({ kind: "over", seat }); // the stock ran out (-1), or a going out told so far
    }
  }
}

/** An entry of the log as a sentence in the current language. */
function sentence(entry) {
  const w = words();
  const d = w.did;
  const you = entry.seat === game.you;
  const who = nameOf(entry.seat);
  if (entry.kind === "dealt") return w.dealt(entry.handNo + 1, who, you);
  if (entry.kind === "over") return entry.seat >= 0 ? d.wentOut(who, you) : w.stockRanOut;
  if (entry.kind === "red") return d.redThrees(who, you, list(entry.cards, FACE), entry.cards.length);
  if (entry.kind === "drew") return d.drew(who, you, entry.count, list(entry.cards, FACE)) + (entry.bonus ? d.canastaBonus : "");
  const move = parseMove(entry.move);
  const cards = list(move.cards, FACE);
  switch (move.kind) {
    // (May I?: the card comes once the others passed or bought the discard, told after)
    case "draw": return entry.count ? d.drew(who, you, entry.count, list(entry.cards, FACE)) : d.choseStock(who, you);
    case "take": {
      if (game.variant === "may_i") return d.tookTop(who, you, entry.top ? face(entry.top) : "");
      if (!move.groups.length) {
        return d.tookOnto(who, you, entry.count, entry.top ? face(entry.top) : "",
          move.target || entry.top[0] || "");
      }
      const [head, ...extras] = move.text.includes(" - /") ? [null, ...move.groups] : move.groups;
      const shown = extras.length ? d.showing(extras.map((g) => list(g.cards, FACE)).join(" + ")) : "";
      return d.tookWith(who, you, entry.count, head ? list(head.cards, FACE) : face(entry.top)) + shown;
    }
    case "meld": return d.melded(who, you, move.groups.map((g) => list(g.cards, FACE)).join(" + "));
    case "add": return d.added(who, you, cards, move.label);
    case "merge": return d.merged(who, you, move.label, move.target);
    case "discard": return d.discarded(who, you, face(move.card));
    case "out": return move.card ? d.wentOutWith(who, you, face(move.card)) : d.wentOut(who, you);
    case "ask": return d.asked(who, you);
    case "yes": return d.yes(who, you);
    case "no": return d.no(who, you);
    case "undo": return d.undid(who, you);
    case "decline": return d.declined(who, you);
    case "end": return d.ended(who, you);
    // the card bought: the pile's top before the buy (public, MI-BUY-2); your penalty
    // card(s) from your own CARDS_DRAWN, another seat's by their number
    case "buy": return d.bought(who, you, entry.top ? face(entry.top) : "", entry.count, list(entry.cards, FACE));
    case "pass": return d.passed(who, you);
    case "down": return d.down(who, you, move.groups.map((g) => list(g.cards, FACE)).join(" + "));
    case "layoff": return d.laidOff(who, you, face(move.card), meldRef(move.target));
    default: return d.other(who, you, written(entry.move));
  }
}

// --- rendering -------------------------------------------------------------------------

// A live region (status, last action, selection) is written only when its words change:
// every render would otherwise replace its text with the same text, which a screen reader
// announces again.
function setLive(node, text) {
  if (node.textContent !== text) say(node, text);
}

function setStatus(state, text) {
  const node = $("status");
  node.dataset.state = state;
  setLive(node, game.notice ? `${game.notice(words())} ${text}` : text);
}

// The error shown (null: none); a change of language words it again (retellError).
let shownError = null;

function showError(err) {
  const node = $("error");
  shownError = err;
  showOptionError(err);
  if (!err || optionRefused(err)) {
    node.hidden = true;
    node.textContent = "";
    delete node.dataset.reason;
    return;
  }
  node.hidden = false;
  if (err instanceof ApiError) {
    node.dataset.reason = err.reason;
    node.replaceChildren(el("span", { textContent: err.message }), " ", el("code", { textContent: err.reason }));
  } else {
    node.textContent = err instanceof Error ? err.message : String(err); // no "Error: " before the page's sentence
  }
  // the bots' moves or the hand's score failed, or the kept game could not be asked for (the
  // service away at a reload): nothing else would ever go on with the game
  // (the two exclude each other: stalled() needs a table drawn, a kept game none)
  const saved = !game.view && kept();
  if (saved || stalled()) {
    const retry = el("button", { type: "button", id: "retry", textContent: words().retry });
    retry.addEventListener("click", () => (saved ? resume(saved) : guarded(runBots)));
    node.append(" ", retry);
  }
}

// The game waits for no one: the bots' turn or the hand's score, with no call under way
// (after a failed call). "Try again" goes on with it (runBots, which scores a hand over).
const stalled = () => !!game.view && !game.busy && !(game.handOver ? game.score : game.view.awaited === game.you);
// Stalled at the error shown: what the status line and the rules panel say then (not that
// a bot plays or the score is counted: nothing goes on until "Try again").
const halted = () => !!shownError && stalled();

// The error shown, written again in the page's language (after a switch).
function retellError() {
  const err = shownError;
  if (!(err instanceof ApiError || err instanceof PageError)) return;
  err.message = reworded(err);
  showError(err);
}

// The words of the page's fixed parts (data-t: text, data-t-placeholder, data-t-aria-label).
function translatePage() {
  const w = words();
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = w[node.dataset.t];
  for (const node of document.querySelectorAll("[data-t-placeholder]")) node.placeholder = w[node.dataset.tPlaceholder];
  for (const node of document.querySelectorAll("[data-t-aria-label]")) node.setAttribute("aria-label", w[node.dataset.tAriaLabel]);
  for (const b of document.querySelectorAll("button.lang")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  document.title = `${w.title} · ${w.subtitle}`;
}

const yourTurn = () => !game.busy && !game.handOver && game.view?.awaited === game.you;

function render() {
  const v = game.view;
  $("board").hidden = false;
  $("board").dataset.hand = String(v.handNo ?? 0);
  renderSeats(v);
  renderPlayOrder(v);
  renderCenter(v);
  renderMelds(v);
  renderHand(v);
  renderActions();
  renderRules(v);
  renderScores(v);
  renderLog();
  renderMoveList(v);
  $("hint").disabled = !yourTurn();
  $("play-text").disabled = !yourTurn();
  const w = words();
  if (halted()) {
    setStatus("stalled", w.stalled);
  } else if (game.handOver && !game.score) {
    // the hand's score on its way: whether the game is over too is not known yet, and the
    // hand's end told now would be told again as the game's (a screen reader heard both,
    // the first naming a "Next hand" the game's end never shows)
    setStatus("scoring", w.scoring);
  } else if (game.handOver) {
    setStatus(game.gameOver ? "game-over" : "hand-over", game.gameOver ? w.gameOver : w.handOver);
  } else if (yourTurn() && v.phase === "permission") {
    setStatus("your-turn", w.partnerAsks(nameOf(v.turnSeat)));
  } else if (yourTurn()) {
    setStatus("your-turn", turnStatus(v, w));
  } else if (game.busy && v.awaited === game.you) {
    // your move sent, its answer not back yet (it read "You is playing…")
    setStatus("sending", w.sending);
  } else if (v.phase === "permission" && v.turnSeat === game.you) {
    setStatus("bots", w.answeringYou(nameOf(v.awaited)));
  } else if (v.phase === "buy_window" && v.awaited >= 0) {
    // May I?: a candidate answers the buy window, which is no turn of his
    setStatus("bots", w.buying(nameOf(v.awaited), v.pileTop ? face(v.pileTop) : ""));
  } else {
    const thinking = w.thinking(nameOf(v.awaited >= 0 ? v.awaited : v.turnSeat));
    setStatus("bots", playsHand(v, game.you) ? thinking : `${w.youSitOut} ${thinking}`);
  }
}

// Whether a move of this kind is listed for you: what the status line and the rules panel
// offer at a draw (a pile frozen, empty or blocked on top is not offered, and an empty
// stock may leave only "decline").
const listed = (kind) => game.moves.some((m) => m.kind === kind);

// Your turn's status line: at a draw, only what the listed moves offer.
function turnStatus(v, w) {
  if (v.phase === "draw") {
    // May I?'s draw takes the card just discarded, never the whole pile
    if (listed("take")) return canastaGame() ? w.phase.draw : w.phase.draw_may_i;
    return w.phase.drawStock;
  }
  if (v.phase === "draw_exhausted") {
    if (!listed("take")) return w.phase.exhaustedLeave;
    return listed("decline") ? w.phase.draw_exhausted : w.phase.exhaustedTake;
  }
  return w.phase[v.phase] ?? w.phase.other;
}

// Whether a seat plays this hand: the view's seatsInPlay (classic with five players leaves
// one seat out of each hand, CL-P5-2, six with p6_mode=rotation two, CL-P6-11, your seat
// among them every third hand); a view without it (an older service) names none out.
const playsHand = (v, seat) => !(v.seatsInPlay ?? []).length || v.seatsInPlay.includes(seat);

function renderSeats(v) {
  const w = words();
  const boxes = { left: [], top: [], right: [] };
  const spots = places(game.players);
  const partners = new Set(meldSeats(v, v.sides.indexOf(mySide())));
  for (let seat = 1; seat < game.players; seat++) {
    const spot = spots[seat];
    const plays = playsHand(v, seat);
    const box = el("div", { className: plays ? "seat" : "seat out" });
    box.dataset.seat = String(seat);
    const n = (v.handSizes ?? [])[seat] ?? 0;
    const backs = el("span", { className: "backs" });
    backs.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(n, 12); i++) backs.append(el("span", { className: "back" }));
    const badges = el("span", { className: "badges" });
    if (v.dealer === seat) badges.append(el("span", { className: "badge dealer", textContent: w.dealer }));
    if (v.awaited === seat) {
      box.classList.add("awaited");
      badges.append(el("span", { className: "badge turn",
        textContent: v.awaited !== v.turnSeat ? w.answering : w.toPlay }));
    }
    if (game.actor === seat) box.classList.add("acted");
    box.append(
      el("strong", { className: "seat-name", textContent: nameOf(seat) }),
      el("span", { className: "role", textContent: roleOf(v, seat, partners) }),
      el("span", { className: "count", textContent: plays ? w.cards(n) : w.sitsOut }),
      backs, badges);
    (spot === "west" ? boxes.left : spot === "east" ? boxes.right : boxes.top).push(box);
  }
  $("seat-left").replaceChildren(...boxes.left);
  $("seat-right").replaceChildren(...boxes.right);
  $("seats-top").replaceChildren(...boxes.top);
  // your seat is no box round the table: its dealer's badge goes beside "Your hand" (there
  // was none, so the hands you deal showed no dealer at all)
  $("me-badges").replaceChildren(...(v.dealer === game.you
    ? [el("span", { className: "badge dealer", textContent: w.youDeal })] : []));
  $("me").classList.toggle("awaited", v.awaited === game.you);
  $("me").classList.toggle("out", !playsHand(v, game.you));
}

// A seat's part at the table: your partner, or an opponent; in cutthroat, once someone has
// taken the pile, the lone hand plays alone, and when that is you, the two others are
// partners (CL-P3-2)
function roleOf(v, seat, partners) {
  const w = words();
  const lone = v.loneHand ?? -1;
  if (partners.has(seat)) return w.partner;
  if (seat === lone) return w.loneHand;
  if (lone !== game.you) return w.opponent;
  const other = (v.meldSide ?? []).findIndex((side, s) => s !== seat && s !== lone && side === v.meldSide[seat]);
  return other < 0 ? w.opponent : w.pairedOpponent(nameOf(other));
}

// The hand's order of play, where it is not the seats' order round the table, which the
// page draws (playOrder, i18n.js).
function renderPlayOrder(v) {
  const order = playOrder(v.seatsInPlay ?? [], game.you);
  const line = $("play-order");
  line.hidden = !order.length;
  line.textContent = order.length ? words().orderOfPlay(order.map(nameOf)) : "";
}

function renderCenter(v) {
  const w = words();
  const stock = el("div", { className: "card back big" });
  stock.setAttribute("aria-hidden", "true");
  $("stock").replaceChildren(stock, el("span", { className: "heap-name", textContent: `${w.stock} · ${v.stockSize ?? 0}` }));
  const top = v.pileTop ? card(v.pileTop) : el("span", { className: "card empty", textContent: w.empty });
  top.classList.add("big");
  const facts = [el("span", { className: "heap-name", textContent: `${w.pile} · ${v.pileSize ?? 0}` })];
  const frozenForMe = mySide()?.pileFrozen;
  if (v.pileFrozen || frozenForMe) {
    facts.push(el("span", { className: "badge frozen", textContent: v.pileFrozen ? w.frozen : w.frozenForYou }));
  }
  $("pile").replaceChildren(top, ...facts);
  $("pile").classList.toggle("frozen", !!(v.pileFrozen || frozenForMe));
  // the moves since your last one in this hand, as sentences
  const recent = [];
  for (let i = game.log.length - 1; i >= 0 && recent.length < 3; i--) {
    const e = game.log[i];
    if (e.kind === "dealt" || (e.kind === "move" && e.seat === game.you && recent.length)) break;
    if (e.kind === "move" || e.kind === "red" || e.kind === "over") recent.unshift(e);
  }
  showRecent($("last-action"), recent);
}

// The last moves, one span per log entry: a move already shown keeps its span, older ones
// leave and new ones are appended, so the live region tells each move once (rewritten
// whole, it read the two moves before again after each bot's move). Entries come in log
// order, so the spans kept are in order and every new one comes after them.
function showRecent(box, entries) {
  for (const node of [...box.children]) if (!entries.includes(node.entry)) node.remove();
  const shown = new Map([...box.children].map((node) => [node.entry, node]));
  for (const e of entries) {
    const node = shown.get(e);
    if (node) setLive(node, sentence(e)); // (worded again after a change of language)
    else box.append(Object.assign(el("span", {}, ...spoken(sentence(e))), { entry: e }));
  }
}

// A canasta's kind as the view names it (canastaKind; an older service's view says natural
// or mixed alone, canasta).
const meldCanasta = (meld) => canastaName(meld.canastaKind || meld.canasta, lang);

function renderMelds(v) {
  const w = words();
  const mine = [];
  const others = [];
  for (const [i, side] of v.sides.entries()) {
    // cutthroat's pair melds on one side, headed by both: the other's side holds nothing
    const seats = meldSeats(v, i);
    if (!seats.length && !(side.melds ?? []).length) continue;
    const box = el("section", { className: "side-melds" });
    box.dataset.team = String(side.team);
    const title = sideTitle({ ...side, seats }, v);
    box.setAttribute("aria-label", `${w.melds}: ${title}`);
    const head = el("h3", { textContent: title });
    const redThrees = v.meldSide?.length ? seats.flatMap((s) => v.seatRedThrees?.[s]?.cards ?? [])
      : side.redThrees ?? [];
    if (redThrees.length) {
      const reds = el("span", { className: "red-threes", title: w.redThrees });
      reds.append(...redThrees.map((c) => card(c)));
      head.append(" ", reds);
    }
    const row = el("div", { className: "meld-row" });
    for (const [i, m] of (side.melds ?? []).entries()) {
      const fig = el("figure", { className: "meld" });
      fig.dataset.label = m.label ?? "";
      fig.dataset.kind = m.kind ?? "group";
      fig.dataset.canasta = m.canasta ?? "";
      if (m.canasta) fig.classList.add("canasta", m.canasta);
      if (game.fresh.has(`${side.team}:${m.label || i}`)) fig.classList.add("fresh");
      const caption = el("figcaption");
      if (m.label) {
        const label = el("code", { className: "label", textContent: m.label, title: w.labelTitle(m.label) });
        caption.append(label);
      }
      // May I?'s melds have no label: the moves name them by number in their side (meldRef)
      const number = canastaGame() ? "" : w.meldName(i + 1);
      if (number) {
        const mark = el("span", { className: "meld-no", textContent: w.meldMark(i + 1), title: number });
        mark.setAttribute("aria-hidden", "true"); // (the meld's name says it)
        caption.append(mark);
      }
      if (m.canasta) caption.append(el("span", { className: "badge canasta-kind", textContent: meldCanasta(m) }));
      if (m.canasta) caption.append(el("span", { className: "meld-count", textContent: `×${m.cards.length}` }));
      // a canasta is squared into a pile, its naturals on top (the wild cards beneath)
      const codes = m.canasta ? [...m.cards].sort((a, b) => isWild(b) - isWild(a)) : m.cards;
      const cards = el("div", { className: "meld-cards" });
      cards.append(...codes.map((c) => card(c)));
      fig.append(cards, caption);
      fig.setAttribute("aria-label", [m.label || number, m.canasta ? meldCanasta(m) : "", w.cards(m.cards.length)].filter(Boolean).join(", "));
      row.append(fig);
    }
    if (!(side.melds ?? []).length) row.append(el("p", { className: "none", textContent: w.noMelds }));
    box.append(head, row);
    (seats.includes(game.you) ? mine : others).push(box);
  }
  $("melds-mine").replaceChildren(...mine);
  $("melds-others").replaceChildren(...others);
}

const isWild = (code) => code === "JK" || (code[0] === "2" && wildDeuces());

// Which hand positions hold a card drawn this turn: as many copies as were drawn.
function drawnPositions(hand) {
  const left = new Map();
  for (const c of game.drawn) left.set(c, (left.get(c) ?? 0) + 1);
  const out = new Set();
  hand.forEach((c, i) => {
    if ((left.get(c) ?? 0) > 0) {
      out.add(i);
      left.set(c, left.get(c) - 1);
    }
  });
  return out;
}

function renderHand(v) {
  const w = words();
  const hand = v.hand ?? [];
  const hadFocus = $("hand").contains(document.activeElement);
  game.focus = Math.min(game.focus, Math.max(hand.length - 1, 0));
  const drawn = drawnPositions(hand);
  const plays = playsHand(v, game.you);
  $("hand-count").textContent = plays ? `(${hand.length})` : "";
  const buttons = hand.map((code, i) => {
    const b = card(code, "button", cardName(code, lang) + (drawn.has(i) ? ` (${w.drawn})` : ""));
    b.type = "button";
    b.dataset.index = String(i);
    b.tabIndex = i === game.focus ? 0 : -1;
    const picked = game.selected.has(i);
    b.setAttribute("aria-pressed", String(picked));
    if (drawn.has(i)) b.classList.add("drawn");
    if (picked) b.classList.add("selected");
    return b;
  });
  $("hand").replaceChildren(...(plays ? buttons : [el("p", { className: "none", textContent: w.handSitsOut })]));
  if (hadFocus && buttons[game.focus]) buttons[game.focus].focus();
  // the view's staged moves are the turn's, whoever plays it: a bot's are not said as yours
  const staged = v.turnSeat === game.you ? v.staged ?? [] : [];
  $("staged").hidden = !staged.length;
  say($("staged"), staged.length ? w.staged(staged.map((t) => stagedPart(parseMove(t))).join("; ")) : "");
}

// A meld action of this turn in the staged list, after "Melded this turn:": its cards (and
// where they went), not a button's words ("Meld 5♠ 5♠ 2♦")
function stagedPart(move) {
  if (move.kind === "meld") return move.groups.map((g) => list(g.cards, FACE)).join(" + ");
  if (move.kind === "add") return words().addedTo(list(move.cards, FACE), move.label);
  return describe(move);
}

const selectedCodes = () => [...game.selected].sort((a, b) => a - b).map((i) => game.view.hand[i]);

// The moves offered: with cards selected, the listed moves those cards make; with none,
// the listed moves that use no hand card (draw, take onto a meld, ask, undo, answers...).
function renderActions() {
  const w = words();
  const picked = selectedCodes();
  const yours = yourTurn();
  let offered;
  let guide;
  if (picked.length) {
    offered = movesOf(picked, game.moves, wildDeuces());
    const partial = game.moves.filter((m) => partOf(picked, m, wildDeuces())).length;
    guide = w.selected(picked.map(face).join(" "));
    if (!offered.length) guide += " — " + (partial ? w.moreCards(partial) : w.noMove);
  } else {
    offered = game.moves.filter((m) => !m.cards.length);
    const takeWithCards = game.moves.some((m) => m.kind === "take" && m.cards.length);
    guide = !yours ? "" : takeWithCards && !offered.some((m) => m.kind === "take") ? `${w.selectHelp} ${w.selectToTake}`
      : game.moves.some((m) => m.cards.length) ? `${w.selectHelp} ${w.selectToPlay}` : "";
  }
  setLive($("selection"), guide);
  const buttons = offered.map((m) => {
    const b = el("button", { type: "button", className: `action ${m.kind}` }, ...spoken(describe(m)));
    b.dataset.move = m.text;
    b.disabled = !yours;
    if (game.hint?.move === m.text) b.classList.add("hinted");
    b.addEventListener("click", () => play(m.text));
    return b;
  });
  if (picked.length) {
    const clear = el("button", { type: "button", className: "clear", textContent: w.clear });
    clear.addEventListener("click", () => select(new Set()));
    buttons.push(clear);
  }
  $("actions").replaceChildren(...buttons);
  const hinted = $("hint-text");
  hinted.hidden = !game.hint;
  say(hinted, game.hint ? w.hintIs(describe(parseMove(game.hint.move))) : "");
  if (game.hint) hinted.dataset.move = game.hint.move;
}

function select(positions) {
  game.selected = positions;
  renderHand(game.view);
  renderActions();
}

// May I? is a contract rummy: its pile is never taken whole nor frozen, it has no minimum
// and no wild cards
const canastaGame = () => game.variant !== "may_i";
const sambaFamily = () => ["samba", "bolivia", "bolivia_sevens"].includes(game.variant);

// The game as it was dealt, its rule options applied (the view says them; /v1/variants'
// tables say the default options' only): the cards a stock draw takes, the canastas needed
// to go out (0: no count lets a side go out) and the most wild cards in a group (0: none)
const drawCount = (v) => v.drawCount ?? 1;
const canastasToGoOut = (v) => v.canastasToGoOut ?? 0;
const wildLimit = (v) => v.wildLimit ?? 0;
// Whether one of those canastas must be an escalera, a sequence canasta (the view's
// outNeedsSequence: Bolivia dealt with bolivia.going_out=hoyle, BO-C1)
const outNeedsEscalera = (v) => !!v.outNeedsSequence;

// The rules that matter now, in a few lines.
function renderRules(v) {
  const r = words().rules;
  const lines = [];
  const side = mySide();
  const mayI = game.variant === "may_i" ? v.mayI : null; // the deal's contract, buys left
  if (mayI && !game.handOver) {
    lines.push(r.contract(mayI.sets ?? 0, mayI.sequences ?? 0));
    lines.push(r.buys((mayI.buysLeft ?? [])[game.you] ?? 0));
  }
  if (halted()) {
    lines.push(r.stalled);
  } else if (game.handOver) {
    lines.push(!game.score ? words().scoring : game.gameOver ? r.gameOver : r.handOver);
  } else if (v.awaited !== game.you) {
    lines.push(playsHand(v, game.you) ? r.bots : r.sittingOut);
  } else if (v.phase === "permission") {
    lines.push(r.permission);
  } else {
    // your partner's answer binds the rest of your turn
    if (v.asked && v.answer) lines.push(v.answer === "yes" ? r.saidYes : r.saidNo);
    if (v.phase === "draw" || v.phase === "draw_exhausted") {
      lines.push(drawLine(v));
      if (canastaGame()) lines.push(...pileLines(v, side));
    }
    if (v.phase === "meld") lines.push(r.meld);
    if ((v.staged ?? []).length) lines.push(r.undo);
    // (the minimum is your team's own, by its score, CL-MIN-1: a cutthroat pair has two)
    if (canastaGame()) lines.push(side?.opened ? r.opened : r.minimum(sideOf(game.you)?.minimum ?? 0, meldValues(cardPoints(), lang)));
    if (v.phase === "meld") lines.push(...meldLines(v));
    if (game.moves.some((m) => m.kind === "ask")) lines.push(r.ask);
  }
  $("rules").replaceChildren(...lines.map((text) => el("li", { textContent: text })));
}

// How you may draw now, as the listed moves allow: the pile (May I?'s discard) only when a
// take is listed, and with the stock gone, taking it, leaving it, or either.
function drawLine(v) {
  const r = words().rules;
  if (v.phase === "draw_exhausted") {
    if (!listed("take")) return r.exhaustedLeave;
    return listed("decline") ? r.exhausted : r.exhaustedTake;
  }
  if (!listed("take")) return r.drawStock(drawCount(v));
  return canastaGame() ? r.draw(drawCount(v)) : r.drawMayI(drawCount(v));
}

// What may take the pile now, in the Canasta games.
function pileLines(v, side) {
  const r = words().rules;
  const lines = [];
  // a black three or a wild card on top blocks it in every Canasta game (CL-PILE-2, SA-PILE-7)
  if (v.pileTop === "3S" || v.pileTop === "3C") lines.push(r.blackThree);
  else if (v.pileTop === "JK" || v.pileTop?.startsWith("2")) lines.push(r.wildTop);
  else if (v.pileFrozen) lines.push(r.frozenWild);
  else if (side?.pileFrozen && !side?.opened) lines.push(r.frozenUnopened);
  if (sambaFamily()) lines.push(r.sambaPile);
  return lines;
}

// What each card of this game counts, as GET /v1/variants' table for its player count says
// (cardPoints: the default options'; an entry's options name those that change it)
const cardPoints = () => game.variantNames.find((v) => v.id === game.variant)?.tables
  ?.find((t) => t.players === game.players)?.cardPoints ?? [];

// What a meld may be, and what going out needs.
function meldLines(v) {
  const r = words().rules;
  const lines = [];
  const canastas = canastasToGoOut(v);
  if (canastas) lines.push(r.goOut(canastas, outNeedsEscalera(v)));
  else if (canastaGame()) lines.push(r.noGoingOut); // Bolivia (BO-OUT-1): no count lets a side out
  if (wildLimit(v)) lines.push(r.wilds(wildLimit(v)));
  if (game.variant.startsWith("bolivia")) lines.push(r.wildMelds);
  if (sambaFamily()) lines.push(r.sequences(words().canastaKind[game.variant === "samba" ? "samba" : "escalera"]));
  return lines;
}

// Each side's match total: from the result once the hand is over (the view's `score` is
// the total the hand started with), and the minimum of its first meld in the hand in play.
// Once the hand is over it is the next hand's, the view's nextMinimum (the finished hand's
// was 50 beside a new total of 1805, which needs 90: CL-MIN-1's bands depend on the game and
// its options); at the game's end, and for May I?'s buys left, there is none to show.
function renderScores(v) {
  const w = words();
  const body = $("scores").querySelector("tbody");
  const results = new Map((game.score?.sides ?? v.result ?? []).map((s) => [s.team, s]));
  // May I? has no minimum: its third column is each side's buys left this deal
  const buys = game.variant === "may_i" ? v.mayI?.buysLeft ?? [] : null;
  const next = game.handOver && !buys && v.sides.some((side) => side.nextMinimum);
  $("scores").querySelector("thead th:nth-child(3)").textContent = buys ? w.buysLeft : w.minimum;
  $("scores").classList.toggle("over", game.handOver && !next); // (table.css: no third column)
  const third = (side) => (buys ? side.seats.map((s) => buys[s] ?? 0).map((n) => (n < 0 ? w.noLimit : String(n))).join(" / ")
    : next ? w.nextMinimum(side.nextMinimum ?? 0) : String(side.minimum ?? 0));
  body.replaceChildren(...v.sides.map((side) => {
    const done = results.get(side.team);
    const tr = el("tr", {},
      el("td", { textContent: sideName(side) }),
      el("td", { className: "num", textContent: String(done ? done.cumulative ?? 0 : side.score ?? 0) }),
      el("td", { className: next ? "" : "num", textContent: third(side) })); // (words wrap)
    tr.dataset.team = String(side.team);
    if (side.seats.includes(game.you)) tr.className = "mine";
    return tr;
  }));
  // what ends this game as it was dealt: a score (targetScore), else a number of deals
  // (deals: Bolivia with sevens, May I?), and then which deal this is (handNo from 0)
  $("target").textContent = v.targetScore ? w.target(v.targetScore)
    : v.deals ? w.deal((v.handNo ?? 0) + 1, v.deals) : "";
}

// The newest entry first, each numbered as it was logged: the list is reversed from the
// count of entries ever logged (numbered from the 60 shown, the newest was always 60 and
// every entry's number changed with each move once the log was longer).
function renderLog() {
  const box = $("log");
  box.dataset.count = String(game.logged);
  box.start = game.logged;
  box.style.setProperty("--digits", String(String(game.logged).length)); // (table.css, #log)
  box.replaceChildren(...game.log.slice(-60).reverse().map((e) => {
    const li = el("li", {}, ...spoken(sentence(e)));
    li.dataset.kind = e.kind;
    li.dataset.seat = String(e.seat);
    if (e.move) li.dataset.move = e.move;
    if (e.seat === game.you) li.className = "mine";
    return li;
  }));
}

// Every listed move as a button, in the list's order, with the hand's card faces. Its name
// is the move as shown, in the notation the box takes, its cards said by name; what it does,
// in words, is its description (a sentence for its name left the notation shown unheard,
// WCAG 2.5.3).
function renderMoveList(v) {
  const yours = yourTurn();
  $("moves").replaceChildren(...(v.legalMoves ?? []).map((text) => {
    const b = el("button", { type: "button", className: "move", title: describe(parseMove(text), SPOKEN) },
      ...spoken(written(text)));
    b.dataset.move = text;
    b.disabled = !yours;
    if (game.hint?.move === text) b.classList.add("hinted");
    b.addEventListener("click", () => play(text));
    return b;
  }));
}

function renderResult() {
  const score = game.score;
  const w = words();
  const panel = $("result-panel");
  panel.hidden = !score;
  resultHeading(!!score?.gameOver);
  if (!score) return;
  const you = score.wentOut === game.you;
  const how = el("p", { id: "went-out", textContent: score.wentOut >= 0
    ? w.wentOut(nameOf(score.wentOut), you, score.concealed) : w.stockRanOut });
  const sides = score.sides ?? [];
  const table = el("table", { id: "score-table" });
  // (the corner heads the rows' names: a name heard alone, axe's empty-table-header)
  const corner = el("th", { scope: "col" }, el("span", { className: "visually-hidden", textContent: w.pointsHead }));
  const head = el("tr", {}, corner);
  for (const s of sides) {
    const th = el("th", { scope: "col", textContent: sideName(s) });
    if ((s.seats ?? []).includes(game.you)) th.className = "mine";
    head.append(th);
  }
  table.append(head);
  const penalties = game.variant === "may_i";
  const rows = penalties ? ["total", "cumulative"]
    : ["base", "canastas", "goingOut", "redThrees", "inHand", "penalties", "total", "cumulative"];
  for (const key of rows) {
    const tr = el("tr", {}, el("th", { scope: "row", textContent: w.rows[key] }));
    tr.dataset.row = key;
    for (const s of sides) {
      const b = s.breakdown ?? {};
      const value = {
        base: b.base ?? 0,
        canastas: b.canastaBonus ?? 0,
        goingOut: b.goingOut ?? 0,
        redThrees: `${b.redThreePoints ?? 0}` + (b.redThrees ? ` (${b.redThrees})` : ""),
        inHand: -(b.inHand ?? 0),
        penalties: -(b.penalties ?? 0),
        total: s.total ?? 0,
        cumulative: s.cumulative ?? 0,
      }[key];
      const td = el("td", { className: "num", textContent: String(value) });
      if (key === "canastas") td.append(el("small", { className: "sub", textContent: canastaCounts(b) }));
      tr.append(td);
    }
    table.append(tr);
  }
  const parts = [how, table];
  if (score.gameOver) {
    const won = sides.find((s) => s.team === score.winner);
    parts.push(el("p", { id: "game-result", textContent: score.draw || score.winner < 0 ? w.draw
      : w.win(won ? sideName(won) : "", !!won && (won.seats ?? []).includes(game.you), (won?.seats ?? []).length) }));
  }
  $("result").replaceChildren(...parts);
  $("next-hand").hidden = !!score.gameOver;
  $("again").hidden = !score.gameOver;
}

// The result's heading: the game's at its end (it said "Hand result" with no hand to come).
// Its data-t keeps it in the page's language (translatePage).
function resultHeading(gameOver) {
  const heading = $("result-panel").querySelector("h2");
  heading.dataset.t = gameOver ? "gameResult" : "result";
  heading.textContent = words()[heading.dataset.t];
}

// A side's canastas in the result by kind, as the score tallies them (the breakdown's
// canastas: natural, mixed and the game's own, a samba, an escalera, a bolivia, each with its
// count and bonuses): "natural 0 · mixed 1 (300) · samba 1 (1500)". A score without tallies
// (a hand scored by an older service) gives the natural and mixed counts alone.
function canastaCounts(breakdown) {
  const w = words();
  const tallies = breakdown.canastas?.length ? breakdown.canastas
    : [{ kind: "natural", count: breakdown.naturalCanastas }, { kind: "mixed", count: breakdown.mixedCanastas }];
  const byKind = new Map(tallies.map((t) => [t.kind, t]));
  const kinds = ["natural", "mixed", ...byKind.keys()].filter((k, i, all) => all.indexOf(k) === i);
  return kinds.map((k) => w.canastaTally(w.canastaShort[k] ?? canastaName(k, lang), byKind.get(k)?.count ?? 0, byKind.get(k)?.bonus ?? 0)).join(" · ");
}

// --- playing ---------------------------------------------------------------------------

// Keep an answer's snapshot and your view. Every call asks for your view alone
// (viewSeat); an answer carrying any other seat's view is refused, never rendered.
function take(answer) {
  const views = answer.views ?? [];
  if (views.length !== 1 || (views[0].seat ?? 0) !== game.you) {
    const seats = views.map((v) => v.seat ?? 0).join(", ");
    throw new PageError((w) => w.notYourView(seats));
  }
  const before = game.view;
  game.snapshot = answer.snapshot;
  record(answer, before);
  game.view = views[0];
  game.moves = (game.view.legalMoves ?? []).map(parseMove);
  game.handOver = game.view.awaited < 0;
  game.selected = new Set();
  game.hint = null;
  game.actor = answer.seat ?? -1;
  game.fresh = changedMelds(before, game.view);
  store(); // every caller dropped an answer of a game replaced: this is the newest snapshot
}

// The melds a move laid or grew: "team:label".
function changedMelds(before, after) {
  const sizes = new Map();
  const key = (s, m, i) => `${s.team}:${m.label || i}`; // May I? melds have no label
  for (const s of before?.sides ?? []) (s.melds ?? []).forEach((m, i) => sizes.set(key(s, m, i), m.cards.length));
  const out = new Set();
  for (const s of after.sides ?? []) {
    (s.melds ?? []).forEach((m, i) => {
      if (sizes.get(key(s, m, i)) !== m.cards.length) out.add(key(s, m, i));
    });
  }
  return out;
}

// The game's credentials, from the answer of Deal (or the host's NextDeal).
function keep(answer) {
  if (answer.hostToken) game.hostToken = answer.hostToken;
  const mine = (answer.seatTokens ?? [])[game.you];
  if (mine) game.seatToken = mine;
}

// --- the game kept in this tab ----------------------------------------------------------

// What a reload, or a tab the browser discarded and restored, needs to resume the game:
// the snapshot, the credentials, what was dealt, the log (the view is asked again). Kept in
// sessionStorage: this tab's alone, gone when it closes (clients/web/README.md, *Credentials*).
const KEPT = ["snapshot", "hostToken", "seatToken", "variant", "players", "level", "seed", "log", "logged", "drawn"];

function store() {
  try {
    sessionStorage.setItem(GAME_KEY, JSON.stringify(Object.fromEntries(KEPT.map((k) => [k, game[k]]))));
  } catch {
    forget(); // (storage full or off) never an older snapshot left to resume
  }
}

function forget() {
  try {
    sessionStorage.removeItem(GAME_KEY);
  } catch {
    // (storage off: nothing is kept)
  }
}

// The game kept in this tab, or null: none, or not one this page wrote (then dropped).
function kept() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(GAME_KEY) ?? "null");
    if (saved && KEPT.every((k) => k in saved)) return Object.fromEntries(KEPT.map((k) => [k, saved[k]]));
  } catch {
    // (not JSON: dropped below)
  }
  forget();
  return null;
}

// The service refused what the tab kept, for good: the snapshot (SNAPSHOT_INVALID,
// SNAPSHOT_KEY_RETIRED after a key rotation or on a server with other keys...) or the
// credentials (CREDENTIAL_KEY_RETIRED...). Not an outage nor a refusal of load: after those
// the game stays kept, for the next reload.
const refusesKept = (err) => err instanceof ApiError && !!err.call && [400, 401, 403].includes(err.status);

// The game being played: "New game" starts another, and every await of the game before
// (its bots' loop, a move or a deal in flight) then finds it changed and drops its answer.
let generation = 0;

// `reveal`: the result is brought into view, as it is when the hand has just ended; not for
// a kept game resumed at the hand's end, left at the top as any page opens.
async function finishHand(reveal) {
  const gen = generation;
  const score = await api("/v1/score-hand", { snapshot: game.snapshot }, game.seatToken);
  if (gen !== generation) return;
  game.score = score;
  game.gameOver = !!game.score.gameOver;
  renderResult();
  render();
  if (reveal) bringIntoView($("result-panel"));
}

// On a phone the result is below the table: out of sight when the hand ends; and once "Next
// hand" has dealt, the page is left where the result was, the new hand's table above the
// screen. Each is scrolled into view for every player (a tap that moves no focus, as on some
// browsers, runs no focus logic to scroll it), smoothly unless less motion is asked for.
// "nearest" scrolls nothing when it is in view already (as on a desktop), and of a part
// taller than the screen shows the edge nearer to it (the table's bottom: your hand). The
// focus is not moved.
function bringIntoView(node) {
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  node.scrollIntoView({ block: "nearest", inline: "nearest", behavior: still ? "auto" : "smooth" });
}

// The bots play until it is your turn or the hand is over (its result then shown, and
// brought into view unless `reveal` is false). The loop belongs to the game it started in:
// after every wait it stops if a new game began meanwhile.
async function runBots(reveal = true) {
  const gen = generation;
  const current = () => gen === generation;
  game.busy = true;
  render();
  try {
    while (!game.handOver && game.view.awaited !== game.you) {
      if (DELAY > 0) await sleep(DELAY);
      if (!current()) return;
      if (game.handOver || game.view.awaited === game.you) break;
      // a bot's move is the host's: advised and applied for the awaited seat, with
      // your view alone in the answer
      const advice = await api("/v1/suggest-move",
        { snapshot: game.snapshot, level: game.level, seed: game.seed }, game.hostToken);
      if (!current()) return;
      const done = await api("/v1/apply-move",
        { snapshot: game.snapshot, move: advice.move, seat: advice.seat ?? 0, viewSeat: game.you },
        game.hostToken);
      if (!current()) return;
      take(done);
      render();
    }
  } finally {
    if (current()) game.busy = false;
  }
  if (game.handOver) await finishHand(reveal);
  if (!current()) return;
  render();
}

// Runs `work`, showing its error; an error of a game that a new game replaced is dropped.
async function guarded(work) {
  const gen = generation;
  showError(null);
  try {
    await work();
  } catch (err) {
    if (gen !== generation) return;
    game.busy = false;
    showError(err);
    if (game.view) {
      render();
      // a keyboard user's focus, lost with the buttons drawn anew, goes to "Try again"
      if (focusFree()) $("retry")?.focus();
    } else {
      // a deal refused: the game before is gone, and so is its table (its moves would do nothing)
      $("board").hidden = true;
      setStatus("idle", words().idle);
    }
  }
}

// The move buttons are drawn anew after every move, so the focus of a keyboard user who
// pressed one would fall to the page's body: it goes to the hand's card that takes the
// focus (else the first move offered, or the next step once the hand is over).
// A move typed in the box (its Play button is disabled while the move is sent, which drops
// the focus too) brings the focus back to the box, refused or played.
const pressedMove = () => ["actions", "moves", "move-form"].some((id) => $(id).contains(document.activeElement));

// (your hand, where the focus waits while the bots play, gives it up as the body does)
const focusFree = () => document.activeElement === document.body || $("hand").contains(document.activeElement);

function refocus() {
  if (document.activeElement && !focusFree()) return; // the focus has gone somewhere meanwhile
  // at the game's end, the result panel's own "New game" (the form's is at the top of the
  // page, far from the result on a phone); a screen reader reads the game's result with it
  const target = $("retry") ?? (game.handOver ? (game.gameOver ? $("again") : $("next-hand"))
    : $("hand").children[game.focus] ?? $("actions").querySelector("button:not(:disabled)"));
  target?.focus();
}

async function play(text) {
  if (!yourTurn()) return;
  game.notice = null;
  const gen = generation;
  const keyboard = pressedMove();
  const typed = $("move-form").contains(document.activeElement);
  await guarded(async () => {
    game.busy = true;
    render();
    let done;
    try {
      done = await api("/v1/apply-move",
        { snapshot: game.snapshot, move: { text }, viewSeat: game.you }, game.seatToken);
    } finally {
      if (gen === generation) game.busy = false;
    }
    if (gen !== generation) return;
    take(done);
    $("move-text").value = "";
    // while the bots play, your hand (not the page's body, where Tab starts from the top)
    if (keyboard && !typed && !game.handOver) refocus();
    await runBots();
  });
  // (a refused move too: its error is shown, and the buttons were drawn anew)
  if (!keyboard || gen !== generation) return;
  if (typed && document.activeElement === document.body) $("move-text").focus();
  else refocus();
}

// What the bot would play for you: asked with your seat's token, so it is advised from
// what your seat may see. Its cards are selected in your hand and its move marked.
function hint() {
  if (!yourTurn()) return;
  return guarded(async () => {
    const asked = game.snapshot;
    const advice = await api("/v1/suggest-move",
      { snapshot: asked, level: HINT_LEVEL, seed: game.seed }, game.seatToken);
    // you may have moved while the hint was asked (a busy server's retries take seconds):
    // advice for a position gone is dropped
    if (game.snapshot !== asked) return;
    const text = advice.move?.text ?? "";
    const move = game.moves.find((m) => m.text === text) ?? parseMove(text);
    game.hint = { move: text };
    game.selected = new Set(positionsOf(move, game.view.hand).filter((i) => i >= 0));
    renderHand(game.view);
    renderActions();
    renderMoveList(game.view);
  });
}

// A game begins, dealt or resumed: nothing of the game before stays on the page.
function begin(settings) {
  Object.assign(game, {
    you: 0, handOver: false, gameOver: false, busy: false, hostToken: "", seatToken: "", score: null,
    log: [], logged: 0, drawn: [], view: null, actor: -1, selected: new Set(), hint: null, fresh: new Set(), notice: null,
  }, settings);
  renderResult();
}

// The seed field takes a uint64 as the service reads it (docs/api.md): decimal digits (its
// pattern), up to 2^64 - 1; the page sends it as typed, never through a Number. A field of
// type number let "1e3" through (a number to the browser, a refusal of the service's) and may
// round a long one. What is wrong is told in the page's words, and the browser then refuses
// to submit the form, as with every field of it.
const MAX_SEED = 2n ** 64n - 1n;

function checkSeed() {
  const field = $("seed");
  const text = field.value;
  const w = words();
  field.setCustomValidity(!text ? "" : !/^[0-9]+$/.test(text) ? w.seedDigits
    : BigInt(text) > MAX_SEED ? w.seedTooBig : "");
}

// A game's seed when none is typed: 64 bits of the browser's secure generator, as docs/api.md
// asks of a host (a seed guessed is a deal anybody can replay), written in decimal as JSON
// writes a uint64. Never a Number: it is exact only below 2^53.
const randomSeed = () => crypto.getRandomValues(new BigUint64Array(1))[0].toString();

// Both "New game" buttons (the form's, and the result panel's at the game's end) start a
// game here. A press while a game is being dealt deals again with the settings as they are
// now (a slow or stuck deal never blocks the page; the answer to the first is dropped). Pressed
// from the keyboard in the result panel (hidden with the result), the focus goes to your hand
// once it is your turn, as after "Next hand".
// `notice`: the status line's first sentence till your first move (why this game was dealt).
async function newGame(notice = null) {
  // (the result panel's "New game" submits no form: its seed is checked here too)
  if (!$("seed").reportValidity()) return;
  const gen = ++generation; // the game before, its bots included, stops here
  const keyboard = document.activeElement === $("again");
  await guarded(async () => {
    // the games' list failed to load when the page opened (the service away): without it
    // the menu is empty and the form offers no rule options
    if (!game.variantNames.length) await loadVariants();
    if (gen !== generation) return;
    const variant = $("variant").value || "classic";
    const players = Number($("players").value || 4);
    const seedText = $("seed").value;
    const options = chosenRuleOptions();
    begin({ variant, players, level: $("bot").value, notice,
      seed: seedText || randomSeed() });
    forget(); // the game before is no longer the tab's to resume
    setStatus("dealing", words().dealing); // (not the game before's turn, till the deal is answered)
    const dealt = await api("/v1/deal", { variant, players, seed: game.seed, viewSeat: game.you,
      ...(Object.keys(options).length ? { options } : {}) });
    if (gen !== generation) return;
    keep(dealt);
    take(dealt);
    await runBots();
  });
  if (keyboard && gen === generation) refocus();
}

// Resumes the game kept in this tab: its table drawn again from its snapshot as after a
// move, from your seat's view (GetView with your token, which lists your moves), and the
// bots go on if it was their turn. The form is left as it is (the URL's presets): it sets
// the next new game. If the service refuses what was kept, it is dropped and a new game of
// the form's dealt, the status line saying why.
async function resume(saved) {
  const gen = ++generation;
  let refused = false;
  begin(saved);
  setStatus("resuming", words().resuming);
  await guarded(async () => {
    let seen;
    try {
      seen = await api("/v1/view", { snapshot: game.snapshot, seat: game.you }, game.seatToken);
    } catch (err) {
      refused = refusesKept(err);
      if (refused) return;
      throw err;
    }
    if (gen !== generation) return;
    take({ snapshot: game.snapshot, views: seen.views });
    game.fresh = new Set(); // (no meld changed: the table is as it was left)
    await runBots(!game.handOver); // (a hand over was not just ended: not scrolled to)
  });
  if (refused && gen === generation) await newGame((w) => w.notResumed);
}

// "Next hand" is off while its deal is on the way: pressed twice, it dealt the hand twice
// and set two bots' loops playing it. Pressed from the keyboard, the focus then goes to
// your hand (the button is hidden with the result). The new hand's table is brought into
// view however it was pressed.
async function nextHand() {
  if (game.busy || !game.handOver) return;
  const gen = generation;
  const keyboard = document.activeElement === $("next-hand");
  game.busy = true;
  $("next-hand").disabled = true;
  await guarded(async () => {
    let dealt;
    try {
      dealt = await api("/v1/next-deal", { snapshot: game.snapshot, viewSeat: game.you },
        game.hostToken);
    } finally {
      if (gen === generation) game.busy = false;
      $("next-hand").disabled = false;
    }
    if (gen !== generation) return;
    game.handOver = false;
    game.score = null;
    renderResult();
    keep(dealt);
    take(dealt);
    render(); // (the new hand's table, to scroll to; the bots' loop draws it again)
    bringIntoView($("table"));
    await runBots();
  });
  if (keyboard && gen === generation) refocus();
}

// The hand: click or tap a card to select it; ←/→ (Home/End) move along the hand,
// Space or Enter select, Escape clears the selection.
function onHandKey(e) {
  const hand = game.view?.hand ?? [];
  const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (e.key in moves) {
    e.preventDefault();
    game.focus = Math.max(0, Math.min(hand.length - 1, game.focus + moves[e.key]));
    for (const b of $("hand").children) b.tabIndex = Number(b.dataset.index) === game.focus ? 0 : -1;
    $("hand").children[game.focus]?.focus();
  } else if (e.key === "Escape") {
    select(new Set());
  }
}

function onHandClick(e) {
  const b = e.target.closest("button.card");
  if (!b) return;
  const i = Number(b.dataset.index);
  const next = new Set(game.selected);
  if (next.has(i)) next.delete(i); else next.add(i);
  game.focus = i;
  select(next);
  $("hand").children[i]?.focus();
}

async function loadVariants() {
  const { variants } = await api("/v1/variants");
  const menu = $("variant");
  const chosen = menu.value || params.get("variant") || "classic";
  game.variantNames = variants;
  menu.replaceChildren(...variants.map((v) => el("option", { value: v.id,
    textContent: `${v.name} (${v.minPlayers}–${v.maxPlayers})` })));
  menu.value = chosen;
  fitPlayers();
  renderOptions();
}

// The players field takes the chosen game's range of players (its entry in /v1/variants:
// minPlayers, maxPlayers), and its number is brought into it: Samba is for four alone.
function fitPlayers() {
  const v = game.variantNames.find((x) => x.id === $("variant").value);
  if (!v) return;
  const field = $("players");
  field.min = String(v.minPlayers);
  field.max = String(v.maxPlayers);
  const n = Math.round(Number(field.value || 4));
  field.value = String(Number.isFinite(n) ? Math.min(v.maxPlayers, Math.max(v.minPlayers, n)) : v.minPlayers);
}

// --- the new game's rule options ------------------------------------------------------

// Under "Rule options" the form offers the chosen game's rule options as GET /v1/variants
// lists them: a field per option (a bool a checkbox, a choice its choices, an integer a text
// field, with a phone's digit keyboard unless the spec lists words it takes as well: May I?'s
// max_buys_per_deal, "none"), labelled with its name and its line
// of doc, its default filled in. Deal sends those changed from the default; the service
// judges every value (its refusal, BAD_OPTION_VALUE, is told in the form: showOptionError).
// The values chosen are kept by game and name while the page is open; the URL presets them
// (`opt.NAME=value`, for the URL's game).
const chosenOptions = new Map(); // "variant/name" -> the option's text
const OPTION_PREFIX = "opt.";
const optionType = (spec) => String(spec.type ?? "").replace("OPTION_TYPE_", "").toLowerCase();
const optionFields = () => [...$("options").querySelectorAll("[data-option]")];
const fieldText = (field) => (field.type === "checkbox" ? String(field.checked) : field.value.trim());

function presetOptions() {
  const variant = params.get("variant") ?? "classic";
  for (const [key, value] of params) {
    if (key.startsWith(OPTION_PREFIX)) chosenOptions.set(`${variant}/${key.slice(OPTION_PREFIX.length)}`, value);
  }
}

function renderOptions() {
  const v = game.variantNames.find((x) => x.id === $("variant").value);
  const specs = v?.options ?? [];
  $("options").replaceChildren(...specs.map((spec) => optionField(v.id, spec)));
  $("options-box").hidden = !specs.length;
  showOptionError(shownError); // (fields drawn anew, after a change of game or language)
}

function optionField(variant, spec) {
  const key = `${variant}/${spec.name}`;
  const preset = spec.defaultValue ?? "";
  const value = chosenOptions.get(key) ?? preset;
  const type = optionType(spec);
  let field;
  if (type === "bool") {
    field = el("input", { type: "checkbox", checked: value === "true" });
  } else if (type === "choice") {
    // a value the URL gave that is not listed (May I?'s custom schedule) is offered too
    // (no default: an empty choice first, the game's own)
    const choices = !value || spec.choices.includes(value) ? spec.choices : [...spec.choices, value];
    field = el("select", {}, ...(preset ? [] : [el("option", { value: "", textContent: words().optionDefault })]),
      ...choices.map((c) => el("option", { value: c, textContent: c })));
    field.value = value;
  } else {
    field = el("input", { type: "text", inputMode: intInputMode(spec), value,
      placeholder: preset ? "" : words().optionDefault });
  }
  field.name = `${OPTION_PREFIX}${spec.name}`;
  field.dataset.option = spec.name;
  field.dataset.preset = preset;
  field.addEventListener(type === "int" ? "input" : "change", () => {
    chosenOptions.set(key, fieldText(field));
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-describedby");
  });
  const translated = OPTION_DOCS[lang]?.[spec.name];
  const doc = el("span", { className: "doc", textContent: translated ?? spec.description ?? "" });
  if (!translated && lang !== "en") doc.lang = "en"; // (the service's line, read as English)
  const name = el("code", { textContent: spec.name });
  return el("label", { className: `option ${type}` }, ...(type === "bool" ? [field, name] : [name, field]), doc);
}

// The options Deal sends: those changed from their default (an integer left empty, or with
// no default and none typed, is the game's own).
function chosenRuleOptions() {
  const out = {};
  for (const field of optionFields()) {
    const text = fieldText(field);
    if (text && text !== field.dataset.preset) out[field.dataset.option] = text;
  }
  return out;
}

const optionRefused = (err) => err instanceof ApiError && err.reason === "BAD_OPTION_VALUE";

// A deal refused for an option's value is told in the form, under the options: the
// service's message and reason, and what the option takes in the page's words (its range
// or choices from GET /v1/variants; the service's message in Russian does not name them).
// The option is the one the refusal names (its field violation, "options.NAME").
function showOptionError(err) {
  const box = $("options-error");
  for (const field of optionFields()) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-describedby");
  }
  box.hidden = !optionRefused(err);
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  const name = (err.fields.find((f) => f.startsWith("options.")) ?? "").slice("options.".length);
  const spec = game.variantNames.find((v) => v.id === err.call?.body?.variant)?.options?.find((o) => o.name === name);
  const field = optionFields().find((f) => f.dataset.option === name);
  const parts = [el("span", { textContent: err.message }), " ", el("code", { textContent: err.reason })];
  if (spec) parts.push(" ", el("span", { className: "takes", textContent: optionTakes(spec) }));
  box.replaceChildren(...parts);
  field?.setAttribute("aria-invalid", "true");
  field?.setAttribute("aria-describedby", "options-error");
  $("options-box").open = true;
}

// A refusal of an option's value was of the game and player count sent: once either is
// changed it is no longer told (nor marks another game's field of the same name).
function dropOptionError() {
  if (optionRefused(shownError)) showError(null);
}

function optionTakes(spec) {
  const w = words();
  return optionType(spec) === "choice" ? w.optionChoice(spec.name, spec.choices.join(", "))
    : w.optionInt(spec.name, spec.minimum ?? 0, spec.maximum ?? 0, (spec.choices ?? []).join(", "));
}

async function setLanguage(next) {
  lang = next;
  localStorage.setItem(LANG_KEY, lang);
  translatePage();
  checkSeed();
  if (game.view) {
    render();
    renderResult();
  } else {
    setStatus("idle", words().idle);
  }
  // the error shown stays, in the new language (not cleared as a new action's would be)
  retellError();
  try {
    await loadVariants();
  } catch (err) {
    showError(err);
  }
}

async function start() {
  translatePage();
  setStatus("idle", words().idle);
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move-text").value.trim();
    if (text) play(text);
  });
  $("next-hand").addEventListener("click", () => nextHand());
  $("again").addEventListener("click", () => newGame());
  $("hint").addEventListener("click", () => hint());
  $("hand").addEventListener("click", onHandClick);
  $("hand").addEventListener("keydown", onHandKey);
  for (const b of document.querySelectorAll("button.lang")) {
    b.addEventListener("click", () => setLanguage(b.dataset.lang));
  }
  for (const name of ["players", "bot", "seed"]) {
    if (params.has(name)) $(name).value = params.get(name);
  }
  checkSeed();
  $("seed").addEventListener("input", checkSeed);
  presetOptions();
  $("variant").addEventListener("change", () => {
    fitPlayers();
    dropOptionError();
    renderOptions();
  });
  // (a refusal is dropped as soon as the count is typed, as an option's field clears its
  // mark; the count is brought into the game's range once it is left)
  $("players").addEventListener("input", dropOptionError);
  $("players").addEventListener("change", () => {
    fitPlayers();
    dropOptionError();
  });
  await guarded(loadVariants);
  document.body.dataset.ready = "true";
  // a game kept in this tab is resumed rather than another dealt
  const saved = kept();
  if (saved) resume(saved);
  else if (params.get("autostart") === "1") newGame();
}

start();
