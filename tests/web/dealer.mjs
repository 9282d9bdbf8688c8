// Who deals, as the table shows it: each CASE ("lang:DEALER") starts classic Canasta for two
// whose deal is answered with a position imported (dealPositions) where DEALER deals and it is
// your turn, and reads the dealer's badge of each seat: yours (under "Your hand") and North's.
//
//   node tests/web/dealer.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": by case, {you, north} (each the
// badge's words, "" when there is none) and the name the hand is heard by.
import { dealPositions, newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let dealer = 0;
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await dealPositions(context, base, () => `canasta-position 1\nvariant: classic\nplayers: 2\ndealer: ${dealer}\n`
    + "turn: 0\nhand0: *15\nhand1: *15\npile: 9S\nstock: *\n");
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const c of cases) {
    const [lang, seat] = c.split(":");
    dealer = Number(seat);
    await newGameAtYourTurn(page, base, { variant: "classic", players: 2, seed: 1, lang });
    found[c] = await page.evaluate(() => ({
      you: document.querySelector("#me-head .badge.dealer")?.textContent ?? "",
      north: document.querySelector(".seat[data-seat='1'] .badge.dealer")?.textContent ?? "",
      hand: document.querySelector("#hand-title").textContent.replace(/\s+/g, " ").trim(),
    }));
  }
}, () => ({ cases: found }));
