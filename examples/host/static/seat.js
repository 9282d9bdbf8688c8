// One seat's page: it joins with the seat token from the link's fragment, gets its own
// seat's view over the WebSocket after every change, and sends the moves it picks from its
// listed legal moves. It never holds a snapshot or the host token: the host keeps them.
// Card faces, the reading of listed moves, the words for a seat sitting a hand out, the
// hand's order of play and the names of canastas come from the standalone web table.

import { callTimeout } from "/web/deadline.js";
import { TEXT, canastaName, cardName, face, playOrder } from "/web/i18n.js";
import { movesOf, parseMove } from "/web/moves.js";

const $ = (id) => document.getElementById(id);
const [, , gameId, seatText] = location.pathname.split("/");
const seat = Number(seatText);
const token = location.hash.slice(1);
let state = null;
let selected = new Set(); // positions in the hand
let socket = null;
// ms the host is given to answer a call, and a join (10 s, as the web table's and the SDKs';
// ?timeout=MS)
const TIMEOUT = callTimeout(new URLSearchParams(location.search));

const red = (code) => code[1] === "H" || code[1] === "D";
const cards = (codes) => (codes.length ? codes.map(face).join(" ") : "–");
const who = (s) => (s === seat ? "you" : state.bots[s] ? `seat ${s} (bot: ${state.bots[s]})` : `seat ${s}`);

const NOT_SENT = "Not sent: the page is not connected to the host. It joins again by itself; then play again.";

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

// A message for the host, or why it was not sent: while the socket is down (the page joins
// again two seconds after it closed) a click would be lost without a word, or throw.
function send(message) {
  if (socket.readyState !== WebSocket.OPEN) {
    showError(NOT_SENT);
    return;
  }
  showError("");
  socket.send(JSON.stringify({ ...message, seq: state.seq }));
}

// "1 card", "2 cards": a count and its noun in the number it takes.
const count = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;

// A side's seats, "seat 0" or "seats 0, 2".
const seatsOf = (seats) => `${seats.length === 1 ? "seat" : "seats"} ${seats.join(", ")}`;

// The rule options the table was dealt with that differ from the game's defaults (the
// host's state message, from the table's record).
function optionsText(options) {
  const set = Object.entries(options).map(([name, value]) => `${name}=${value}`);
  return `Rule options: ${set.length ? set.join(", ") : "the game's defaults"}.`;
}

// The game's counts as it was dealt, its options applied (the view's draw_count,
// canastas_to_go_out and wild_limit: 0 is none, May I? has no canastas and no wild cards;
// out_needs_sequence: one of those canastas an escalera, BO-C1), in the web table's rules
// panel's words; "" for a view without them (an older service).
function rulesText(view) {
  const r = TEXT.en.rules;
  return [view.draw_count ? r.drawStock(view.draw_count) : "",
    view.canastas_to_go_out ? r.goOut(view.canastas_to_go_out, !!view.out_needs_sequence) : "",
    view.wild_limit ? r.wilds(view.wild_limit) : ""].filter(Boolean).join(" ");
}

// Whether a seat plays this hand: the view's seats_in_play (classic with five players leaves
// one seat out of each hand, CL-P5-2), as the web table reads it; a view without it (an
// older service) names none out.
const playsHand = (view, s) => !(view.seats_in_play ?? []).length || view.seats_in_play.includes(s);

// The hand's order of play where it is not round the table (five players' third hand plays
// 0, 3, 2, 4, CL-P5-3), in the web table's words; "" where it is.
function orderText(view) {
  const order = playOrder(view.seats_in_play ?? [], seat);
  return order.length ? TEXT.en.orderOfPlay(order.map((s) => (s === seat ? "you" : `seat ${s}`))) : "";
}

// The side a seat melds on, whose `opened` is the seat's: its team's, but in cutthroat for
// three once someone has taken the pile, where the two others meld together on the lower
// seat's side (the view's meld_side, CL-P3-2), as the web table reads it; a view without it
// (an older service) gives the team's.
const meldSideOf = (view, s) => view.sides[(view.meld_side ?? [])[s]] ??
  view.sides.find((side) => side.seats.includes(s));

// Whom a seat plays with this hand in cutthroat, once someone has taken the pile (the view's
// lone_hand and meld_side, CL-P3-2): the lone hand plays alone, the two others are partners.
// [] for the lone hand, and for every seat of the other games (their teams are their sides).
function cutthroatPartners(view, s) {
  const by = view.meld_side ?? [];
  if ((view.lone_hand ?? -1) < 0 || s === view.lone_hand) return [];
  return by.flatMap((side, other) => (other !== s && side === by[s] ? [other] : []));
}

// A seat's part in cutthroat, on its line: ", plays alone", ", your partner", ", partner of
// seat 2"; "" before anyone has taken the pile, and in the other games.
function cutthroatRole(view, s) {
  if ((view.lone_hand ?? -1) >= 0 && s === view.lone_hand) return ", plays alone";
  const [partner] = cutthroatPartners(view, s);
  if (partner === undefined) return "";
  return partner === seat ? ", your partner" : `, partner of seat ${partner}`;
}

// A side's pair in cutthroat, in its heading: ", partners with seat 2 this hand", and for the
// side whose melds lie on the other's, where they are ("their melds are side 1's").
function pairText(view, side) {
  const partners = side.seats.flatMap((s) => cutthroatPartners(view, s));
  if (!partners.length) return "";
  const on = meldSideOf(view, side.seats[0]);
  return `, partners with ${seatsOf(partners)} this hand${on === side ? "" : `: their melds are side ${on.team}'s`}`;
}

// A meld's canasta as the game names it (the view's canasta_kind: a samba or an escalera is
// natural by its canasta, a bolivia mixed), in the web table's words; an older service's view
// says natural or mixed alone. "" for a meld that is no canasta.
function meldCanasta(meld) {
  const kind = meld.canasta_kind || meld.canasta;
  return kind ? canastaName(kind, "en") : "";
}

// May I?'s contract, "2 sets and 1 sequence" (the view's public may_i).
function contract(mayI) {
  const part = (n, one) => (n ? count(n, one) : "");
  return [part(mayI.sets, "set"), part(mayI.sequences, "sequence")].filter(Boolean).join(" and ");
}

// A seat's buys left this deal in May I? (-1: no limit), "" in the other games.
function buysLeft(view, s) {
  const n = view.may_i?.buys_left?.[s];
  if (n === undefined) return "";
  return n < 0 ? ", buys without limit" : `, ${count(n, "buy")} left`;
}

// A side's match total: the result's once the hand is over (the view's `score` is the
// total the hand started with: at a game over it read beside the result's "in all").
function matchScore(view, side) {
  const done = state.hand_over ? (view.result ?? []).find((r) => r.team === side.team) : undefined;
  return done ? done.cumulative : side.score;
}

// A side's initial-meld minimum: the side's own, by its score (CL-MIN-1), till it opens (its
// meld side's opening: a cutthroat pair's, once one of them has melded); at a hand's end the
// next hand's, the view's next_minimum (the finished hand's is the view's minimum); "" at
// the game's end and in May I?, which has none.
function minimumText(view, side) {
  if (state.hand_over) return side.next_minimum ? `, ${TEXT.en.nextMinimum(side.next_minimum)}` : "";
  return meldSideOf(view, side.seats[0]).opened || !side.minimum ? "" : `, needs ${side.minimum} to open`;
}

// What ends the game as it was dealt: the score (target_score), else the number of deals
// (deals: Bolivia with sevens, May I?) and which of them this is; "" when neither is said.
// A deal past the last is played only after a tie with tie_policy play_on (SV-GAME-1).
function gameEnd(view) {
  if (view.target_score) return `The game is played to ${view.target_score}.`;
  if (!view.deals) return "";
  const n = view.hand_no + 1;
  return n <= view.deals ? `Deal ${n} of ${view.deals}.` : `Deal ${n}: another after a tie.`;
}

function renderTable(view) {
  const frozen = view.pile_frozen ? ", frozen" : "";
  $("heaps").textContent = `Stock: ${count(view.stock_size, "card")}. Discard pile: ${count(view.pile_size, "card")}` +
    `${frozen}, top ${view.pile_top ? face(view.pile_top) : "–"}.`;
  $("contract").hidden = !view.may_i;
  $("contract").textContent = view.may_i ? `This deal's contract: ${contract(view.may_i)}.` : "";
  $("target").textContent = gameEnd(view);
  $("target").hidden = !$("target").textContent;
  $("options").textContent = optionsText(state.options);
  $("rules").textContent = rulesText(view);
  $("rules").hidden = !$("rules").textContent;
  $("seats").replaceChildren(...view.hand_sizes.map((n, s) => {
    const li = document.createElement("li");
    const plays = playsHand(view, s);
    // (your own line out of the hand in the web table's words for you: "you: sits" read wrong)
    const out = s === seat ? TEXT.en.seatsOut("", true, 1) : `${who(s)}: ${TEXT.en.sitsOut}`;
    li.textContent = `${plays ? `${who(s)}: ${count(n, "card")}` : out}${buysLeft(view, s)}` +
      `${cutthroatRole(view, s)}${s === view.dealer ? ", dealer" : ""}` +
      `${s === view.awaited && !state.hand_over ? " ← to move" : ""}`;
    li.className = [s === seat ? "mine" : "", plays ? "" : "out"].filter(Boolean).join(" ");
    return li;
  }));
  $("order").textContent = orderText(view);
  $("order").hidden = !$("order").textContent;
  $("sides").replaceChildren(...view.sides.map((side) => {
    const div = document.createElement("div");
    const h = document.createElement("h3");
    h.textContent = `Side ${side.team} (${seatsOf(side.seats)}): match score ${matchScore(view, side)}` +
      `${minimumText(view, side)}${pairText(view, side)}`;
    div.append(h);
    if (side.red_threes.length) div.append(`Red threes: ${cards(side.red_threes)}`);
    for (const meld of side.melds) {
      const p = document.createElement("p");
      p.className = "meld";
      // May I?'s melds have no label, and its sides no minimum (a contract opens them)
      const canasta = meldCanasta(meld);
      p.textContent = `${meld.label ? `${meld.label}: ` : ""}${cards(meld.cards)}${canasta ? ` (${canasta})` : ""}`;
      div.append(p);
    }
    return div;
  }));
}

function renderHand(view) {
  $("hand-count").textContent = `(${view.hand.length})`;
  $("hand").replaceChildren(...view.hand.map((code, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = red(code) ? "card red" : "card";
    b.textContent = face(code);
    b.setAttribute("aria-label", cardName(code, "en"));
    b.setAttribute("aria-pressed", String(selected.has(i)));
    b.addEventListener("click", () => {
      if (selected.has(i)) selected.delete(i); else selected.add(i);
      render();
    });
    return b;
  }));
}

function renderMoves(view) {
  const listed = view.legal_moves.map(parseMove);
  const picked = [...selected].map((i) => view.hand[i]);
  // (deuces are wild where the game has wild cards: the view's wild_limit, 0 in May I?)
  const offered = picked.length ? movesOf(picked, listed, view.wild_limit > 0) : listed;
  // a seat dealt out of the hand holds no card and has no move in it: said, as the web table
  // says it in place of the hand, lest the empty hand read as a turn to come
  $("selection").textContent = picked.length
    ? `Selected: ${cards(picked)} — ${offered.length} move(s) use exactly these cards.`
    : listed.length ? "Pick a move, or select cards to see only the moves they make."
    : playsHand(view, seat) || state.hand_over ? "" : TEXT.en.handSitsOut;
  $("moves").replaceChildren(...offered.map((move) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = move.text.split(" ").map((w) => (/^(JK|[2-9TJQKA][SHDC])$/.test(w) ? face(w) : w)).join(" ");
    b.title = move.text;
    b.addEventListener("click", () => {
      selected = new Set();
      send({ type: "move", move: move.text });
    });
    return b;
  }));
}

function renderResult(view) {
  const box = $("result");
  box.hidden = !state.hand_over;
  $("next").hidden = !state.hand_over || state.game_over;
  if (!state.hand_over) return;
  const rows = view.result.map((side) => `Side ${side.team}: ${side.total} this hand, ${side.cumulative} in all`);
  box.replaceChildren(Object.assign(document.createElement("h3"), {
    textContent: state.game_over ? `The game is over: ${winner(view)}.` : "The hand is over",
  }), ...rows.map((r) => Object.assign(document.createElement("p"), { textContent: r })));
}

// Who won the game, the view's winner (a team, -1 a draw), as the web table says it: the
// totals alone leave a May I? player, whose lowest total wins, to work it out.
function winner(view) {
  const side = view.sides.find((s) => s.team === view.winner);
  if (!side) return "a draw";
  if (side.seats.includes(seat)) return "you win";
  return `side ${side.team} (${seatsOf(side.seats)}) wins`;
}

function render() {
  const view = state.view;
  $("title").textContent = `Canasta (${state.variant}, ${state.players} players): seat ${seat}`;
  const out = playsHand(view, seat) ? "" : `${TEXT.en.youSitOut} `;
  $("status").textContent = state.game_over ? "The game is over."
    : state.hand_over ? "The hand is over."
    : `${out}Hand ${view.hand_no + 1}, move ${state.seq}: ${view.awaited === seat ? "your move" : `${who(view.awaited)} to move`} (${view.phase}).`;
  renderTable(view);
  renderHand(view);
  renderMoves(view);
  renderResult(view);
  $("log").replaceChildren(...[...state.log].reverse().map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  $("board").hidden = false;
}

function receive(event) {
  const message = JSON.parse(event.data);
  if (message.type === "refused") {
    showError(`Refused: ${message.message} (${message.reason}${message.rule ? `, ${message.rule}` : ""})`);
    return;
  }
  if (state && message.seq < state.seq) return; // an older change, already superseded
  if (!state || message.seq !== state.seq) selected = new Set();
  state = message;
  render();
}

// The host answers a join with the seat's state at once: a socket that has none by the
// deadline (a host that took the connection and hangs: the page said "Connecting…" for ever)
// is given up, its events no longer heard, and the page joins again, as when one closes.
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${gameId}/${seat}`);
  socket = ws;
  const listening = new AbortController();
  const on = (type, handle) => ws.addEventListener(type, handle, { signal: listening.signal });
  const rejoin = () => {
    $("status").textContent = "Disconnected; reconnecting…";
    setTimeout(connect, 2000);
  };
  const late = setTimeout(() => {
    listening.abort();
    ws.close();
    rejoin();
  }, TIMEOUT);
  on("open", () => {
    ws.send(JSON.stringify({ token }));
    if ($("error").textContent === NOT_SENT) showError(""); // joined again: play again
  });
  on("message", (event) => {
    clearTimeout(late);
    receive(event);
  });
  on("close", (event) => {
    clearTimeout(late);
    if (event.code === 4403) {
      $("status").textContent = "This link does not open this seat (check the whole link, with its # part).";
      return;
    }
    rejoin();
  });
}

// The seat's own record as a file, or why not: the host's refusal ({reason, message}: 502
// with the rules service away), no answer at all, or none by the call's deadline.
async function downloadRecord() {
  const cannot = (why) => showError(`The record could not be exported: ${why}`);
  const signal = AbortSignal.timeout(TIMEOUT);
  let answer;
  let text;
  try {
    answer = await fetch(`/api/tables/${gameId}/record?seat=${seat}`, {
      headers: { Authorization: `Bearer ${token}` }, signal,
    });
    text = await answer.text();
  } catch (err) {
    cannot(signal.aborted ? "the host did not answer in time" : `the host cannot be reached (${err.message})`);
    return;
  }
  if (!answer.ok) {
    let got = null;
    try {
      got = JSON.parse(text);
    } catch {
      // no JSON: not the host's refusal (a proxy's page)
    }
    cannot(got?.reason ? `${got.message} (${got.reason})` : `the host answered ${answer.status}`);
    return;
  }
  showError("");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = `canasta-${gameId}-seat-${seat}.txt`;
  link.click();
  URL.revokeObjectURL(link.href);
}

$("next").addEventListener("click", () => send({ type: "next" }));
$("record").addEventListener("click", downloadRecord);
connect();
