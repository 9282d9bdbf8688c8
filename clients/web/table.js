// The reference web table: one hand after another against bots, over the REST API only.
// The page keeps the sealed snapshot; it never opens it. Every answer's view of your
// seat (viewSeat) is what it renders. No build step: a plain ES module.
//
// Credentials (docs/security.md): the calls made for you (your moves, the hint, the
// score) present seat 0's token, so the service answers them as your seat; the bots'
// moves and the next deal present the host token and ask for your view only. This one
// page holds the host token only because it is a self-contained demo (clients/web/README.md).

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const params = new URLSearchParams(location.search);
const DELAY = Number(params.get("delay") ?? 300); // ms between bot moves, to follow them

const game = {
  snapshot: "", // base64, as the API sends it
  you: 0,
  level: "greedy",
  seed: "0",
  variant: "classic",
  view: null, // your SeatView
  hostToken: "", // acts for any seat: the bots' moves and the next deal only
  seatToken: "", // your seat's: every call made for you
  busy: false,
  handOver: false,
  gameOver: false,
};

const $ = (id) => document.getElementById(id);

class ApiError extends Error {
  constructor(reason, message, status) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}

// One REST call; `token` is the credential it presents (none: a spectator's call).
async function api(path, body, token = "") {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  let resp;
  try {
    resp = await fetch(path, body === undefined ? { headers } : {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("UNAVAILABLE", `the server cannot be reached (${err.message})`, 0);
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const error = data.error ?? {};
    const info = (error.details ?? []).find((d) => String(d["@type"]).endsWith("ErrorInfo"));
    throw new ApiError(info?.reason ?? error.status ?? "HTTP_" + resp.status,
      error.message ?? resp.statusText, resp.status);
  }
  return data;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// --- rendering -------------------------------------------------------------------------

function card(code) {
  const el = document.createElement("span");
  el.className = "card";
  el.dataset.card = code;
  el.title = code;
  if (code === "JK") {
    el.textContent = "JK";
    el.classList.add("joker");
    return el;
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  el.textContent = rank + SUITS[suit];
  if (RED.has(suit)) el.classList.add("red");
  return el;
}

function cards(codes) {
  const box = document.createElement("span");
  box.className = "cards";
  for (const c of codes) box.append(card(c));
  return box;
}

function sideName(side) {
  const solo = game.view.sides.every((s) => s.seats.length === 1);
  const mine = side.seats.includes(game.you);
  if (solo) return mine ? "You" : `Seat ${side.team}`;
  return `Team ${side.team}` + (mine ? " (you)" : "");
}

function setStatus(state, text) {
  const el = $("status");
  el.dataset.state = state;
  el.textContent = text;
}

function showError(err) {
  const el = $("error");
  if (!err) {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  el.hidden = false;
  el.textContent = err instanceof ApiError ? `${err.reason}: ${err.message}` : String(err);
}

function log(text) {
  const box = $("log");
  box.dataset.count = String(Number(box.dataset.count ?? 0) + 1); // lines ever logged
  const li = document.createElement("li");
  li.textContent = text;
  $("log").prepend(li);
  while ($("log").children.length > 60) $("log").lastChild.remove();
}

function render() {
  const v = game.view;
  $("board").hidden = false;
  const sizes = v.handSizes ?? [];

  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  for (const side of v.sides) {
    const tr = document.createElement("tr");
    if (side.seats.includes(game.you)) tr.className = "mine";
    const held = side.seats.map((s) => `${s}: ${sizes[s] ?? 0}`).join(", ");
    for (const text of [sideName(side), side.seats.join(" "), side.score ?? 0,
      side.minimum ?? 0, held]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    body.append(tr);
  }

  const pile = $("pile");
  pile.replaceChildren();
  const top = document.createElement("div");
  top.className = "pile-top";
  top.append(v.pileTop ? card(v.pileTop) : Object.assign(document.createElement("span"),
    { className: "card empty", textContent: "empty" }));
  const facts = document.createElement("div");
  facts.id = "pile-facts";
  facts.textContent = `Pile ${v.pileSize ?? 0} card(s)` + (v.pileFrozen ? " · frozen" : "") +
    ` · Stock ${v.stockSize ?? 0}`;
  pile.append(top, facts);

  const melds = $("melds");
  melds.replaceChildren();
  for (const side of v.sides) {
    const row = document.createElement("div");
    row.className = "side" + (side.seats.includes(game.you) ? " mine" : "");
    const name = document.createElement("strong");
    name.textContent = sideName(side) + ":";
    row.append(name);
    if (!(side.melds ?? []).length) row.append(" no melds");
    for (const m of side.melds ?? []) {
      const box = document.createElement("span");
      box.className = "meld" + (m.canasta ? " canasta " + m.canasta : "");
      box.title = m.canasta ? `${m.canasta} canasta` : `meld of ${m.rank}`;
      box.append(cards(m.cards));
      row.append(box);
    }
    if ((side.redThrees ?? []).length) {
      const reds = document.createElement("span");
      reds.className = "red-threes";
      reds.append("red threes ", cards(side.redThrees));
      row.append(reds);
    }
    melds.append(row);
  }

  const hand = v.hand ?? [];
  $("hand-count").textContent = `(${hand.length})`;
  $("hand").replaceChildren(...hand.map(card));
  const staged = $("staged");
  staged.hidden = !(v.staged ?? []).length;
  staged.textContent = "Staged this turn: " + (v.staged ?? []).join(" ; ");

  const moves = $("moves");
  moves.replaceChildren();
  const yours = !game.busy && v.awaited === game.you;
  for (const text of v.legalMoves ?? []) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.move = text;
    b.textContent = text;
    b.disabled = !yours;
    b.addEventListener("click", () => play(text));
    moves.append(b);
  }
  $("play-text").disabled = !yours;
  $("hint").disabled = !yours;
  $("hint-text").hidden = true;

  if (game.handOver) {
    setStatus(game.gameOver ? "game-over" : "hand-over",
      game.gameOver ? "The game is over." : "The hand is over.");
  } else if (yours) {
    setStatus("your-turn", `Your move (seat ${game.you}, ${v.phase}).`);
  } else {
    setStatus("bots", `Seat ${v.awaited} is thinking…`);
  }
}

function renderResult(score) {
  const panel = $("result-panel");
  panel.hidden = false;
  const how = score.wentOut >= 0 ? `Seat ${score.wentOut} went out` +
    (score.concealed ? " concealed" : "") + "." : "The stock ran out.";
  const penalties = game.variant === "may_i";
  const head = penalties ? ["Player", "Penalty points", "Game total"]
    : ["Side", "Melds", "Canastas", "Going out", "Red threes", "In hand", "Total", "Game"];
  const table = document.createElement("table");
  table.id = "score-table";
  const tr = document.createElement("tr");
  for (const h of head) tr.append(Object.assign(document.createElement("th"), { textContent: h }));
  table.append(tr);
  for (const s of score.sides) {
    const b = s.breakdown ?? {};
    const mine = (s.seats ?? []).includes(game.you);
    const name = (game.view.sides.every((x) => x.seats.length === 1)
      ? (mine ? "You" : `Seat ${s.team}`) : `Team ${s.team}${mine ? " (you)" : ""}`);
    const cells = penalties ? [name, s.total ?? 0, s.cumulative ?? 0]
      : [name, b.base ?? 0, b.canastaBonus ?? 0, b.goingOut ?? 0, b.redThreePoints ?? 0,
        -((b.inHand ?? 0) + (b.penalties ?? 0)), s.total ?? 0, s.cumulative ?? 0];
    const row = document.createElement("tr");
    if (mine) row.className = "mine";
    for (const c of cells) row.append(Object.assign(document.createElement("td"), { textContent: c }));
    table.append(row);
  }
  const p = document.createElement("p");
  p.textContent = how;
  const parts = [p, table];
  if (score.gameOver) {
    const won = score.sides.find((s) => s.team === score.winner);
    const end = document.createElement("p");
    end.id = "game-result";
    end.textContent = score.draw || score.winner < 0 ? "Game over: a draw."
      : `Game over: ${won && won.seats.includes(game.you) ? "you win" : sideNameOf(score.winner) + " wins"}.`;
    parts.push(end);
  }
  $("result").replaceChildren(...parts);
  $("next-hand").hidden = !!score.gameOver;
}

function sideNameOf(team) {
  const side = game.view.sides.find((s) => s.team === team);
  return side ? sideName(side) : `Side ${team}`;
}

// --- playing ---------------------------------------------------------------------------

// Keep an answer's snapshot and your view. Every call asks for your view alone
// (viewSeat); an answer carrying any other seat's view is refused, never rendered.
function take(answer) {
  const views = answer.views ?? [];
  if (views.length !== 1 || (views[0].seat ?? 0) !== game.you) {
    throw new Error(`an answer with views of seats ${views.map((v) => v.seat ?? 0)}, not yours alone`);
  }
  game.snapshot = answer.snapshot;
  game.view = views[0];
  game.handOver = game.view.awaited < 0;
}

// The game's credentials, from the answer of Deal (or the host's NextDeal).
function keep(answer) {
  if (answer.hostToken) game.hostToken = answer.hostToken;
  const mine = (answer.seatTokens ?? [])[game.you];
  if (mine) game.seatToken = mine;
}

async function finishHand() {
  const score = await api("/v1/score-hand", { snapshot: game.snapshot }, game.seatToken);
  game.gameOver = !!score.gameOver;
  log(score.wentOut >= 0 ? `hand over: seat ${score.wentOut} went out` : "hand over: the stock ran out");
  renderResult(score);
  render();
}

async function runBots() {
  game.busy = true;
  render();
  try {
    while (!game.handOver && game.view.awaited !== game.you) {
      if (DELAY > 0) await sleep(DELAY);
      // a bot's move is the host's: advised and applied for the awaited seat, with
      // your view alone in the answer
      const hint = await api("/v1/suggest-move",
        { snapshot: game.snapshot, level: game.level, seed: game.seed }, game.hostToken);
      const done = await api("/v1/apply-move",
        { snapshot: game.snapshot, move: hint.move, seat: hint.seat ?? 0, viewSeat: game.you },
        game.hostToken);
      log(`seat ${done.seat} (${game.level}): ${done.move.text}`);
      take(done);
      render();
    }
  } finally {
    game.busy = false;
  }
  if (game.handOver) await finishHand();
  render();
}

async function guarded(work) {
  showError(null);
  try {
    await work();
  } catch (err) {
    game.busy = false;
    showError(err);
    if (game.view) render();
  }
}

function play(text) {
  if (game.busy || !game.view || game.view.awaited !== game.you) return;
  return guarded(async () => {
    game.busy = true;
    render();
    let done;
    try {
      done = await api("/v1/apply-move",
        { snapshot: game.snapshot, move: { text }, viewSeat: game.you }, game.seatToken);
    } finally {
      game.busy = false;
    }
    log(`you: ${done.move.text}`);
    take(done);
    $("move-text").value = "";
    await runBots();
  });
}

// What the greedy bot would play for you: asked with your seat's token, so it is
// advised from what your seat may see.
function hint() {
  if (game.busy || !game.view || game.view.awaited !== game.you) return;
  return guarded(async () => {
    const advice = await api("/v1/suggest-move",
      { snapshot: game.snapshot, level: "greedy", seed: game.seed }, game.seatToken);
    const text = advice.move?.text ?? "";
    $("hint-text").textContent = `Hint (greedy bot): ${text}`;
    $("hint-text").hidden = false;
    for (const b of $("moves").querySelectorAll("button.move")) {
      b.classList.toggle("hinted", b.dataset.move === text);
    }
  });
}

function newGame() {
  return guarded(async () => {
    const variant = $("variant").value || "classic";
    const players = Number($("players").value || 4);
    const seedText = $("seed").value.trim();
    game.variant = variant;
    game.level = $("bot").value;
    game.seed = seedText || String(Math.floor(Math.random() * 2 ** 31));
    game.you = 0;
    game.handOver = game.gameOver = false;
    game.hostToken = game.seatToken = "";
    $("log").replaceChildren();
    $("result-panel").hidden = true;
    const dealt = await api("/v1/deal",
      { variant, players, seed: game.seed, viewSeat: game.you });
    log(`dealt ${variant} for ${players} players, seed ${game.seed}; you are seat 0`);
    keep(dealt);
    take(dealt);
    await runBots();
  });
}

function nextHand() {
  return guarded(async () => {
    const dealt = await api("/v1/next-deal", { snapshot: game.snapshot, viewSeat: game.you },
      game.hostToken);
    game.handOver = false;
    $("result-panel").hidden = true;
    log("next hand dealt");
    keep(dealt);
    take(dealt);
    await runBots();
  });
}

async function start() {
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("move-text").value.trim();
    if (text) play(text);
  });
  $("next-hand").addEventListener("click", () => nextHand());
  $("hint").addEventListener("click", () => hint());
  for (const name of ["players", "bot", "seed"]) {
    if (params.has(name)) $(name).value = params.get(name);
  }
  try {
    const { variants } = await api("/v1/variants");
    const select = $("variant");
    for (const v of variants) {
      const o = document.createElement("option");
      o.value = v.id;
      o.textContent = `${v.name} (${v.minPlayers}–${v.maxPlayers})`;
      select.append(o);
    }
    select.value = params.get("variant") ?? "classic";
    select.addEventListener("change", () => {
      const v = variants.find((x) => x.id === select.value);
      const n = Number($("players").value);
      if (v && (n < v.minPlayers || n > v.maxPlayers)) $("players").value = v.maxPlayers >= 4 && v.minPlayers <= 4 ? 4 : v.minPlayers;
    });
  } catch (err) {
    showError(err);
  }
  document.body.dataset.ready = "true";
  if (params.get("autostart") === "1") newGame();
}

start();
