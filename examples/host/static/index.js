// The host's index page: a form that creates a table (POST /api/tables) and shows each
// seat's join link. Nothing here holds the host token: the host never sends it.
import { callTimeout } from "/web/deadline.js";
import { intInputMode } from "/web/options.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["person", "random", "greedy", "expert"];
// ms each call to the host is given (10 s, as the web table's and the SDKs'; ?timeout=MS)
const TIMEOUT = callTimeout(new URLSearchParams(location.search));
let variants = [];

const chosen = () => variants.find((x) => x.id === $("variant").value);

function seatRows() {
  const players = Number($("players").value);
  const box = $("seats");
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(Object.assign(document.createElement("legend"), { textContent: "Seats" }));
  for (let s = 0; s < players; s++) {
    const label = document.createElement("label");
    label.append(`Seat ${s} `);
    const select = document.createElement("select");
    select.name = `seat-${s}`;
    for (const level of LEVELS) {
      select.append(new Option(level === "person" ? "a person" : `bot: ${level}`, level));
    }
    select.value = kept[s] ?? (s === 0 ? "person" : "greedy");
    label.append(select);
    box.append(label);
  }
}

// The chosen game's rule options as drawn, each {option, row, control, doc}: the option as
// ListVariants lists it (from /api/variants), the page's row, its field and what it says.
let offered = [];

// The chosen game's rule options, each at its default: a choice, or true or false, from a
// list; an integer as its digits (or a word the listing gives it as its choices: May I?'s
// max_buys_per_deal takes none), blank for its default. The service checks every value:
// the page sends what the person changed as it is, and shows the service's refusal.
function optionRows() {
  offered = (chosen()?.options ?? []).map(optionRow);
  $("options").replaceChildren($("options").querySelector("legend"), ...offered.map((o) => o.row));
  optionCounts();
}

function optionRow(option) {
  let control;
  if (option.type === "int") {
    control = Object.assign(document.createElement("input"), { type: "text", inputMode: intInputMode(option) });
    control.dataset.default = "";
  } else {
    control = document.createElement("select");
    if (option.default === null) control.append(new Option("the game's own", ""));
    for (const c of option.type === "bool" ? ["false", "true"] : option.choices) {
      control.append(new Option(c === option.default ? `${c} (default)` : c, c));
    }
    control.dataset.default = control.value = option.default ?? "";
  }
  control.name = option.name;
  control.setAttribute("aria-describedby", `doc-${option.name}`);
  const label = document.createElement("label");
  label.append(`${option.name} `, control);
  const doc = Object.assign(document.createElement("small"), { id: `doc-${option.name}` });
  const row = Object.assign(document.createElement("div"), { className: "option" });
  row.append(label, doc);
  return { option, row, control, doc };
}

// What the player count changes of the options, in place (a field being filled in stays): a
// default by player count is that count's (classic's target_score). Every option is offered
// at every count, as the service lists it: a rule's section (CL-P6-9) does not bound where
// its option acts (black_three_meld_max limits going out at four players too).
function optionCounts() {
  const players = Number($("players").value);
  for (const { option, control, doc } of offered) {
    const shown = option.default ?? option.default_by_players[players] ?? "the game's own";
    if (option.type === "int") control.placeholder = shown;
    const words = option.choices.length ? ` or ${option.choices.join(", ")}` : "";
    const range = option.type === "int" ? `; default ${shown}; ${option.minimum} to ${option.maximum}${words}` : "";
    doc.textContent = `${option.description} (${option.rule}${range})`;
  }
}

// The options to deal the table with: those offered that the person changed.
function chosenOptions() {
  const options = {};
  for (const { control } of offered) {
    const value = control.value.trim();
    if (value !== control.dataset.default) options[control.name] = value;
  }
  return options;
}

function playerRows() {
  seatRows();
  optionCounts();
}

function limits() {
  const v = chosen();
  if (!v) return;
  $("players").min = v.min_players;
  $("players").max = v.max_players;
  const n = Math.min(Math.max(Number($("players").value), v.min_players), v.max_players);
  $("players").value = n;
  seatRows();
  optionRows();
}

const LATE = "the host did not answer in time";

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

// The JSON of one of the host's answers, or null with why not shown. The host refuses in
// JSON ({reason, message}: 502 with the rules service away), but a proxy in front of it or a
// connection that fails answers no JSON at all. A host that never answers is given up at the
// call's deadline (the page waited for ever).
async function ask(path, init = {}) {
  const signal = AbortSignal.timeout(TIMEOUT);
  let answer;
  try {
    answer = await fetch(path, { ...init, signal });
  } catch (err) {
    showError(signal.aborted ? LATE : `the host cannot be reached (${err.message})`);
    return null;
  }
  const got = await answer.json().catch(() => null);
  if (signal.aborted) {
    showError(LATE);
    return null;
  }
  if (answer.ok && got !== null) return got;
  showError(got?.reason ? `${got.reason}: ${got.message}` : `the host answered ${answer.status}`);
  return null;
}

async function create(event) {
  event.preventDefault();
  $("error").hidden = true;
  const bots = {};
  $("seats").querySelectorAll("select").forEach((select, seat) => {
    if (select.value !== "person") bots[seat] = select.value;
  });
  const body = {
    variant: $("variant").value, players: Number($("players").value), bots, options: chosenOptions(),
  };
  const got = await ask("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (got === null) return;
  $("game-id").textContent = got.game_id;
  const list = $("links");
  list.replaceChildren();
  for (const seat of got.seats) {
    const item = document.createElement("li");
    if (seat.link) {
      const a = document.createElement("a");
      a.href = seat.link;
      a.target = "_blank";
      a.textContent = new URL(seat.link, location.href).href;
      item.append(`Seat ${seat.seat}: `, a);
    } else {
      item.append(`Seat ${seat.seat}: bot (${seat.bot})`);
    }
    list.append(item);
  }
  $("created").hidden = false;
}

async function start() {
  $("players").addEventListener("change", playerRows);
  seatRows();
  let got = await ask("/api/variants");
  if (got !== null && !Array.isArray(got)) {
    // JSON, but not the host's (a proxy's answer): for...of below would throw, page blank
    showError("the host answered no list of games");
    got = null;
  }
  if (got === null) {
    // no games to offer: nothing can be created until the page is loaded again
    $("create").querySelector("button[type=submit]").disabled = true;
    $("error").append(" Reload the page to try again.");
    return;
  }
  variants = got;
  for (const v of variants) $("variant").append(new Option(v.name, v.id));
  $("variant").value = "classic";
  $("variant").addEventListener("change", limits);
  $("create").addEventListener("submit", create);
  limits();
}

start();
