// The host's index page: a form that creates a table (POST /api/tables) and shows each
// seat's join link. Nothing here holds the host token: the host never sends it.

const $ = (id) => document.getElementById(id);
const LEVELS = ["person", "random", "greedy", "expert"];
let variants = [];

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

function limits() {
  const v = variants.find((x) => x.id === $("variant").value);
  if (!v) return;
  $("players").min = v.min_players;
  $("players").max = v.max_players;
  const n = Math.min(Math.max(Number($("players").value), v.min_players), v.max_players);
  $("players").value = n;
  seatRows();
}

async function create(event) {
  event.preventDefault();
  $("error").hidden = true;
  const bots = {};
  $("seats").querySelectorAll("select").forEach((select, seat) => {
    if (select.value !== "person") bots[seat] = select.value;
  });
  const body = { variant: $("variant").value, players: Number($("players").value), bots };
  const answer = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const got = await answer.json();
  if (!answer.ok) {
    $("error").textContent = `${got.reason}: ${got.message}`;
    $("error").hidden = false;
    return;
  }
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
  variants = await (await fetch("/api/variants")).json();
  for (const v of variants) $("variant").append(new Option(v.name, v.id));
  $("variant").value = "classic";
  $("variant").addEventListener("change", limits);
  $("players").addEventListener("change", seatRows);
  $("create").addEventListener("submit", create);
  limits();
}

start();
