// "Next hand" pressed twice, from the keyboard. Each CASE ("lang") deals classic Canasta for
// four whose view the test turns into a hand just over (as hand_end.mjs does), answers the
// page's ScoreHand, and answers NextDeal with a fresh deal after 300 ms. Enter is pressed
// twice on "Next hand": while the deal is on its way the button is read, then the requests
// sent, the deals logged, and where the focus is once it is your turn.
//
//   node tests/web/next_hand.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { dealHandsOver, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let sides = [];
let nextDeals = 0;
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await dealHandsOver(context, (dealt) => { sides = dealt; });
  await context.route("**/v1/score-hand", (route) => route.fulfill({ json: {
    handOver: true, gameOver: false, wentOut: -1, winner: -1,
    sides: sides.map((s) => ({ team: s.team, seats: s.seats, total: 100, cumulative: 100, breakdown: {} })),
  } }));
  await context.route("**/v1/next-deal", async (route) => {
    nextDeals++;
    await new Promise((done) => setTimeout(done, 300));
    const response = await route.fetch({ url: new URL("/v1/deal", base).href,
      postData: JSON.stringify({ variant: "classic", players: 4, seed: "8", viewSeat: 0 }) });
    await route.fulfill({ response });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const lang of cases) {
    nextDeals = 0;
    await page.goto(`${base}/play?variant=classic&players=4&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.waitForSelector("#result-panel:not([hidden]) #score-table", { timeout: 30_000 });
    await page.focus("#next-hand");
    await page.keyboard.press("Enter");
    const inFlight = await page.$eval("#next-hand", (b) => ({ disabled: b.disabled }));
    await page.keyboard.press("Enter");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await page.waitForTimeout(600); // a second deal, if one was sent, would be back by now
    found[lang] = {
      inFlight,
      nextDeals,
      dealt: await page.$$eval("#log li[data-kind=dealt]", (lis) => lis.map((li) => li.textContent)),
      state: await page.$eval("#status", (el) => el.dataset.state),
      focus: await page.evaluate(() => (document.activeElement?.closest("#hand") ? "hand" : document.activeElement?.id || document.activeElement?.tagName)),
    };
  }
}, () => ({ cases: found }));
