// Bolivia with sevens' first-canasta bonus (SV-BONUS-1) in the log: each LANG starts a game
// whose deal is answered with POSITION imported (dealPositions: your meld phase, six kings
// laid, K♥ in hand), selects K♥ and presses its addition, which completes the deal's first
// canasta and draws the eleven stock cards; then reads the log's newest entries.
//
//   node tests/web/canasta_bonus.mjs BASE_URL POSITION LANG...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": by language, the log's newest
// three entries (newest first).
import { dealPositions, newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, position, ...langs] = process.argv.slice(2);
const problems = [];
const found = {};
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await dealPositions(context, base, () => position);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const lang of langs) {
    await newGameAtYourTurn(page, base, { variant: "bolivia_sevens", players: 4, seed: 1, lang });
    await page.click("#hand .card[data-card='KH']");
    await page.click("#actions button[data-move='add K KH']");
    await page.waitForSelector("#log li[data-move='add K KH']", { timeout: 30_000 });
    found[lang] = await page.$$eval("#log li", (lis) => lis.slice(0, 3).map((li) => li.textContent));
  }
}, () => ({ cases: found }));
