// The rules panel at your first draw, game by game: each CASE ("variant:players:lang",
// a "+3S" tail for a doctored deal) deals a new game and reads the panel's lines. A
// doctored deal's view is given a black three on top of a frozen pile, as the page is
// answered (the snapshot is the service's): the panel must then say what that pile
// means in that game, and nothing where it means nothing (May I?).
//
//   node tests/web/rules_panel.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's lines, status
// line and moves listed, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const panels = {};
const statuses = {}; // the status line above the table at that draw
const moves = {}; // the moves listed then
let doctor = ""; // the card the next deal's view gets on top of its pile, "" none
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/deal", async (route) => {
    const response = await route.fetch();
    const dealt = await response.json();
    if (doctor) Object.assign(dealt.views[0], { pileTop: doctor, pileFrozen: true, pileSize: 1 });
    await route.fulfill({ response, json: dealt });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const name of cases) {
    const [game, top = ""] = name.split("+");
    const [variant, players, lang] = game.split(":");
    doctor = top;
    await page.goto(`${base}/play?variant=${variant}&players=${players}&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    panels[name] = await page.$$eval("#rules li", (items) => items.map((li) => li.textContent));
    statuses[name] = await page.$eval("#status", (el) => el.textContent);
    moves[name] = await page.$$eval("#moves button", (items) => items.map((b) => b.dataset.move));
  }
}, () => ({ panels, statuses, moves }));
