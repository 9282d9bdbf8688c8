// May I?'s buy window, as a person meets it. Each CASE ("lang") deals May I? for three
// (greedy bots, seed 11) and plays: at your draw you draw from the stock, at your meld the
// hint's move, and in your first buy window you buy (later ones you pass). Every change of
// the status line is recorded (hearStatus), so a bot's buy window, which passes in
// a moment, is read too. Read: your buy window (status, buttons, rules), the log after your
// buy (and your hand then), and the status lines while a bot answers a buy window.
//
//   node tests/web/may_i_buy.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { hearStatus, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
const TURN = "#status[data-state=your-turn], #status[data-state=hand-over], #status[data-state=game-over]";
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await hearStatus(context);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  const read = () => page.evaluate(() => ({
    status: document.querySelector("#status").textContent,
    state: document.querySelector("#status").dataset.state,
    actions: [...document.querySelectorAll("#actions button")].map((b) => b.dataset.move),
    rules: [...document.querySelectorAll("#rules li")].map((li) => li.textContent),
    log: [...document.querySelectorAll("#log li")].map((li) => li.textContent),
    hand: [...document.querySelectorAll("#hand .card")].map((b) => b.dataset.card),
    pile: document.querySelector("#pile .card")?.dataset.card ?? "",
  }));
  for (const lang of cases) {
    const seen = {};
    await page.goto(`${base}/play?variant=may_i&players=3&seed=11&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    for (let turn = 0; turn < 40; turn++) {
      await page.waitForSelector(TURN, { timeout: 30_000 });
      const now = await read();
      if (now.state !== "your-turn") break;
      const logged = await page.$eval("#log", (el) => el.dataset.count);
      if (now.actions.includes("buy") && !seen.window) {
        seen.window = now;
        await page.click('#actions button[data-move="buy"]');
      } else if (now.actions.includes("pass")) {
        await page.click('#actions button[data-move="pass"]');
      } else if (now.actions.includes("draw")) {
        await page.click('#actions button[data-move="draw"]');
      } else {
        await page.click("#hint");
        await page.waitForSelector("#hint-text:not([hidden])", { timeout: 30_000 });
        const hinted = await page.$eval("#hint-text", (el) => el.dataset.move);
        await page.click(`#actions button[data-move="${hinted}"]`);
      }
      await page.waitForFunction((n) => document.querySelector("#log").dataset.count !== n, logged,
        { timeout: 30_000 });
      if (seen.window && !seen.bought) {
        const after = await read();
        seen.bought = after.log;
        seen.hand = after.hand;
      }
      if (seen.bought && turn > 12) break;
    }
    seen.statuses = await page.evaluate(() => [...new Set(window.heard)]);
    found[lang] = seen;
  }
}, () => ({ cases: found }));
