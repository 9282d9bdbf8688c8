// The seats around the table in classic Canasta for five players, where one seat sits out
// each hand (CL-P5-2). Each CASE ("hand:seat:lang") deals a new game of five, imported at
// that hand (from 0) with that seat dealt out when the hand is not the first (the first is
// dealt as the page asks), and reads the other seats' boxes, the sides' melds' headings and
// the line of the hand's order of play at your first turn.
//
//   node tests/web/sitting_out.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's seats (seat: its
// count line, and whether its box is drawn as sitting out), each case's headings (team: its
// words, the red threes laid beside them left out), each case's order of play ("" when the page
// shows none), any problems.
import { dealPositions, newGameAtYourTurn, runTest, sideHeadings, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const seats = {};
const heads = {};
const orders = {};
let hand = 0; // the hand the next game is imported at (0: dealt as asked)
let out = -1; // the seat dealt out of that hand

// A position at hand `hand` of five players, seat `out` holding nothing, the dealer the
// last seat (in every hand of the rotation), your seat 0 to draw first.
function position(body) {
  const hands = Array.from({ length: 5 }, (_, s) => `hand${s}: ${s === out ? "-" : "*11"}`);
  return ["canasta-position 1", `variant: ${body.variant}`, "players: 5", `hand: ${hand}`,
    "dealer: 4", ...hands, "pile: *1", "stock: *", ""].join("\n");
}

await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await dealPositions(context, base, (body) => (hand ? position(body) : ""));
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const name of cases) {
    const [at, seat, lang] = name.split(":");
    [hand, out] = [Number(at), Number(seat)];
    await newGameAtYourTurn(page, base, { variant: "classic", players: 5, seed: 5, lang });
    seats[name] = await page.$$eval(".seat[data-seat]", (boxes) => Object.fromEntries(boxes.map(
      (b) => [b.dataset.seat, { count: b.querySelector(".count").textContent,
        out: b.classList.contains("out") }])));
    heads[name] = await sideHeadings(page);
    orders[name] = await page.$eval("#play-order", (line) => (line.hidden ? "" : line.textContent));
  }
}, () => ({ seats, heads, orders }));
