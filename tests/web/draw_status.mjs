// The status line and the rules panel at a draw, from positions: each CASE (JSON: name,
// variant, players, lang, position) starts a new game whose deal is answered with the
// position imported (dealPositions), at your turn, and reads the status line, the rules
// panel's lines and the moves listed. Both must offer only what the listed moves offer.
//
//   node tests/web/draw_status.mjs BASE_URL CASES_JSON
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's status, rules and moves.
import { dealPositions, newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, casesJson] = process.argv.slice(2);
const cases = JSON.parse(casesJson);
const problems = [];
const found = {};
let position = ""; // the position the next deal is answered with
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await dealPositions(context, base, () => position);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const c of cases) {
    position = c.position;
    await newGameAtYourTurn(page, base, { variant: c.variant, players: c.players, seed: 1, lang: c.lang });
    found[c.name] = await page.evaluate(() => ({
      status: document.querySelector("#status").textContent,
      rules: [...document.querySelectorAll("#rules li")].map((li) => li.textContent),
      moves: [...document.querySelectorAll("#moves button")].map((b) => b.dataset.move),
    }));
  }
}, () => ({ cases: found }));
