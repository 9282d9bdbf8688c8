// The players field of the setup form, game by game: for every game in the menu (the
// service's list, GET /v1/variants), the field is given too many players and then too few,
// and stepped up with the arrow key past its end; it reports the field's min, max and number
// each time. A page opened for Samba with six players (?variant=samba&players=6), and a new
// May I? game typed with nine players and started with Enter, report what the field holds
// and the players the deal asked for.
//
//   node tests/web/players_field.mjs BASE_URL
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": the findings, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base] = process.argv.slice(2);
const problems = [];
const found = { games: {} };
const deals = []; // the players each deal asked for
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  page.on("request", (req) => {
    if (req.url().endsWith("/v1/deal")) deals.push(JSON.parse(req.postData() ?? "{}").players);
  });
  const field = () => page.$eval("#players", (f) => ({ min: f.min, max: f.max, value: f.value }));
  // a number typed in the field, then the field left (Tab), as a person does
  const type = async (text) => {
    await page.fill("#players", text);
    await page.press("#players", "Tab");
  };

  await page.goto(`${base}/play?variant=samba&players=6&seed=5&bot=greedy&delay=0&lang=en`);
  await page.waitForSelector("body[data-ready=true]");
  found.samba6 = await field();

  const games = await page.$$eval("#variant option", (options) => options.map((o) => o.value));
  for (const game of games) {
    const seen = {};
    await page.selectOption("#variant", "classic");
    await type("99");
    await page.selectOption("#variant", game);
    seen.chosen = await field(); // chosen with too many players in the field
    await type("1");
    seen.few = await field();
    await page.focus("#players");
    for (let i = 0; i < 8; i++) await page.keyboard.press("ArrowUp");
    seen.stepped = await field();
    found.games[game] = seen;
  }

  await page.selectOption("#variant", "may_i");
  await page.fill("#players", "9");
  await page.press("#players", "Enter");
  // (a number past the field's max is not sent: the browser refuses to submit the form)
  await page.waitForSelector("#status[data-state=your-turn], #error:not([hidden])", { timeout: 10_000 })
    .catch(() => {});
  found.mayI9 = { ...await field(), error: await page.$eval("#error", (el) => (el.hidden ? "" : el.textContent)) };
}, () => { found.deals = deals; return found; });
