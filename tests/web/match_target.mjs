// The match target under the scores, game by game: each CASE ("variant:players:lang", a
// "=N" tail for a deal asked with the target_score option N, as a host deals one) deals a
// new game and reads the line at your first turn.
//
//   node tests/web/match_target.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's line, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const lines = {};
let target = ""; // the target_score the next deal is asked with, "" none
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/deal", async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}");
    if (target) body.options = { ...body.options, target_score: target };
    await route.continue({ postData: JSON.stringify(body) });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const name of cases) {
    const [game, asked = ""] = name.split("=");
    const [variant, players, lang] = game.split(":");
    target = asked;
    await page.goto(`${base}/play?variant=${variant}&players=${players}&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    lines[name] = await page.$eval("#target", (el) => el.textContent);
  }
}, () => ({ lines }));
