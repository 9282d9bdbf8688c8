// A bot's melds of its turn are not yours: the view's `staged` lists the meld actions of the
// turn being played, whoever plays it. Each CASE ("lang") deals classic for four (seed 1) and
// plays your turns from the "All moves" list (draw, then the first discard) until a bot's
// move leaves a meld staged in its turn; the bots' next move is held while the line under
// your hand is read.
//
//   node tests/web/bots_staged.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's bot staged moves and
// the line under your hand (hidden: ""), any problems.
import { gate, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let botStaged = null; // the staged moves of the bot's answer just rendered, till it is read
let held = null; // the gate the bots' next move is held at (gate())

await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/apply-move", async (route) => {
    const response = await route.fetch();
    const answer = await response.json();
    const staged = answer.views?.[0]?.staged ?? [];
    if ((answer.seat ?? 0) !== 0 && staged.length && held && !botStaged) botStaged = staged;
    await route.fulfill({ response, json: answer });
  });
  await context.route("**/v1/suggest-move", async (route) => {
    const hold = botStaged && held;
    if (hold) {
      held = null;
      await hold.wait();
    }
    await route.continue();
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const lang of cases) {
    botStaged = null;
    const { reached, release } = held = gate();
    await page.goto(`${base}/play?variant=classic&players=4&seed=1&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.click("#moves-panel summary");
    for (let turn = 0; turn < 80; turn++) {
      const next = await Promise.race([reached.then(() => "held"),
        page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 }).then(() => "yours")]);
      if (next === "held") break;
      const moves = await page.$$eval("#moves button.move", (bs) => bs.map((b) => b.dataset.move));
      const move = moves.find((m) => m === "draw") ?? moves.find((m) => m.startsWith("discard "));
      const logged = await page.$eval("#log", (log) => Number(log.dataset.count));
      await page.click(`#moves button.move[data-move="${move}"]`);
      await page.waitForFunction((n) => Number(document.querySelector("#log").dataset.count) > n, logged);
    }
    await reached;
    found[lang] = { staged: botStaged, line: await page.$eval("#staged", (el) => (el.hidden ? "" : el.textContent)) };
    release();
  }
}, () => ({ cases: found }));
