// The melds laid this turn (which undo may take back), said under your hand: each CASE
// ("lang:seed") deals classic for four and plays your turns from the "All moves" list (a
// addition when one is listed, else a meld, else a draw, else a discard) until a meld is
// staged, and an addition too where one is listed after it; then reads
// the staged line and the staged moves of the service's last answer.
//
//   node tests/web/staged.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's line and moves,
// any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let staged = [];
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/apply-move", async (route) => {
    const response = await route.fetch();
    const answer = await response.json();
    if ((answer.seat ?? 0) === 0 && answer.views) staged = answer.views[0].staged ?? [];
    await route.fulfill({ response, json: answer });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const name of cases) {
    const [lang, seed] = name.split(":");
    await page.goto(`${base}/play?variant=classic&players=4&seed=${seed}&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.click("#moves-panel summary");
    for (let turn = 0; turn < 60; turn++) {
      await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
      const moves = await page.$$eval("#moves button.move", (bs) => bs.map((b) => b.dataset.move));
      if (!(await page.$eval("#staged", (el) => el.hidden))
          && (staged.some((m) => m.startsWith("add ")) || !moves.some((m) => m.startsWith("add ")))) break;
      const move = moves.find((m) => m.startsWith("add ")) ?? moves.find((m) => m.startsWith("meld "))
        ?? moves.find((m) => m === "draw") ?? moves.find((m) => m.startsWith("discard "));
      await page.click(`#moves button.move[data-move="${move}"]`);
    }
    found[name] = { line: await page.$eval("#staged", (el) => (el.hidden ? "" : el.textContent)), staged };
  }
}, () => ({ cases: found }));
