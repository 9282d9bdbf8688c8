// Classic cutthroat for three (CL-P3-2): the first seat to take the pile plays alone and the
// two others are partners for the rest of the hand, melding together. Each CASE
// ("name:lang") deals a new game answered with POSITIONS[name] (a JSON object of positions,
// each at your draw) and reads, at your turn, the other seats' boxes' roles, the headings of
// the sides' melds and their melds' labels, and whether "Ask partner" is offered.
//
//   node tests/web/cutthroat.mjs BASE_URL POSITIONS CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": per case its roles (seat:
// words), heads (team: words), melds (team: labels) and ask (true/false), any problems.
import { dealPositions, newGameAtYourTurn, runTest, sideHeadings, watch } from "./chromium.mjs";

const [base, positions, ...cases] = process.argv.slice(2);
const given = JSON.parse(positions);
const problems = [];
const found = {};
let name = "";

await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await dealPositions(context, base, () => given[name]);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const c of cases) {
    const [at, lang] = c.split(":");
    name = at;
    await newGameAtYourTurn(page, base, { variant: "classic", players: 3, seed: 5, lang });
    found[c] = {
      roles: await page.$$eval(".seat[data-seat]", (boxes) => Object.fromEntries(boxes.map(
        (b) => [b.dataset.seat, b.querySelector(".role").textContent]))),
      heads: await sideHeadings(page),
      melds: await page.$$eval(".side-melds", (sides) => Object.fromEntries(sides.map((side) => [
        side.dataset.team, [...side.querySelectorAll("figure.meld")].map((m) => m.dataset.label)]))),
      ask: await page.$$eval("#actions button[data-move='ask']", (b) => b.length > 0),
    };
  }
}, () => ({ found }));
