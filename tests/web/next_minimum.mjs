// The scores' minimum at a hand's end. Each CASE ("lang") starts classic Canasta for four
// whose deal is answered with POSITION imported (dealPositions), where West goes out right
// after your discard of 6C. Once the hand's result is shown it reads the scores' column
// heads and third cells shown; then "Next hand" (the service's own next deal), and the same
// once it is your turn.
//
//   node tests/web/next_minimum.mjs BASE_URL POSITION CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { dealPositions, discardAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, position, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await dealPositions(context, base, () => position);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  const scores = () => page.evaluate(() => {
    const shown = (cells) => [...cells].filter((c) => c.checkVisibility()).map((c) => c.textContent);
    return { head: shown(document.querySelectorAll("#scores thead th")),
      third: shown(document.querySelectorAll("#scores tbody td:nth-child(3)")),
      overflow: document.documentElement.scrollWidth - window.innerWidth };
  });
  for (const lang of cases) {
    await discardAtYourTurn(page, base, lang, "6C", (button) => page.click(button));
    await page.waitForSelector("#status[data-state=hand-over]", { timeout: 30_000 });
    const over = await scores();
    await page.click("#next-hand");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    found[lang] = { over, next: await scores() };
  }
}, () => ({ cases: found }));
