// The status line at a draw, from positions: each CASE (JSON: name, variant, players, lang,
// position) starts a new game whose deal is answered with the position imported (POST
// /v1/position:import, your view alone), at your turn, and reads the status line and the
// moves listed. The status must offer only what the listed moves offer.
//
//   node tests/web/draw_status.mjs BASE_URL CASES_JSON
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's status and moves.
import { runTest, watch } from "./chromium.mjs";

const [base, casesJson] = process.argv.slice(2);
const cases = JSON.parse(casesJson);
const problems = [];
const found = {};
let position = ""; // the position the next deal is answered with
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/deal", async (route) => {
    const response = await route.fetch({ url: new URL("/v1/position:import", base).href,
      postData: JSON.stringify({ position, viewSeat: 0 }) });
    await route.fulfill({ response });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const c of cases) {
    position = c.position;
    await page.goto(`${base}/play?variant=${c.variant}&players=${c.players}&seed=1&bot=greedy&delay=0&lang=${c.lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    found[c.name] = await page.evaluate(() => ({
      status: document.querySelector("#status").textContent,
      moves: [...document.querySelectorAll("#moves button")].map((b) => b.dataset.move),
    }));
  }
}, () => ({ cases: found }));
