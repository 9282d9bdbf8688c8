// The end of a hand, game by game, without playing it: each CASE
// ("variant:players:lang:width") deals a new game whose view the test turns into a hand
// just over (awaited -1, the stock run out), answers the page's ScoreHand with a result
// for every side (wide numbers, each side's name), and reads the result panel: no word
// nor number of the score table may be broken across lines (five or six sides share the
// side panel), and the page is no wider than the screen. Then "Next hand" (answered with
// a fresh deal, dealt by you as the deal goes round): the new hand's table must not tell
// the hand before's events, and the log says that you deal in the page's words for you.
// At the hand's end and in the next hand it reads the result's heading and the scores'
// column heads shown (the minimum or buys left is the hand in play's).
//
//   node tests/web/hand_end.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { dealHandsOver, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let sides = []; // the dealt game's sides, for the made-up score
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await dealHandsOver(context, (dealt) => { sides = dealt; });
  await context.route("**/v1/score-hand", (route) => route.fulfill({ json: {
    handOver: true, gameOver: false, wentOut: -1, winner: -1,
    sides: sides.map((s, i) => ({ team: s.team, seats: s.seats, total: 1115 - 2000 * i, cumulative: 11115 - 20000 * i,
      breakdown: { base: 1230, canastaBonus: 1500, goingOut: 100, redThreePoints: 800, redThrees: 4, inHand: 125,
        penalties: 100, naturalCanastas: 2, mixedCanastas: 1 } })),
  } }));
  // the next deal: a fresh game's deal, as the service answers it, told as dealt by you
  await context.route("**/v1/next-deal", async (route) => {
    const response = await route.fetch({ url: new URL("/v1/deal", base).href,
      postData: JSON.stringify({ variant: found.variant, players: found.players, seed: "8", viewSeat: 0 }) });
    const dealt = await response.json();
    for (const ev of dealt.events ?? []) if (ev.type === "EVENT_TYPE_HAND_DEALT") ev.seat = 0;
    await route.fulfill({ response, json: dealt });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const name of cases) {
    const [variant, players, lang, width] = name.split(":");
    Object.assign(found, { variant, players: Number(players) });
    await page.setViewportSize({ width: Number(width), height: 900 });
    await page.goto(`${base}/play?variant=${variant}&players=${players}&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.waitForSelector("#result-panel:not([hidden]) #score-table", { timeout: 30_000 });
    const shown = await page.evaluate(() => {
      // the words of each cell (a line may break at a space or a hyphen) that span two lines
      const broken = [];
      for (const cell of document.querySelectorAll("#score-table th, #score-table td")) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.textContent.matchAll(/[^\s-]+/g)) {
            const range = document.createRange();
            range.setStart(n, m.index);
            range.setEnd(n, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(m[0]);
          }
        }
      }
      return {
        broken,
        columns: document.querySelectorAll("#score-table tr:first-child th").length,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        stockRanOut: document.querySelector("#went-out").textContent,
        heading: document.querySelector("#result-panel h2").textContent,
        scoresHead: [...document.querySelectorAll("#scores thead th")].filter((th) => th.checkVisibility())
          .map((th) => th.textContent),
      };
    });
    await page.click("#next-hand");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    shown.lastAction = await page.$eval("#last-action", (el) => el.textContent);
    shown.dealtLine = await page.$eval("#log li[data-kind=dealt]", (el) => el.textContent);
    shown.nextScoresHead = await page.$$eval("#scores thead th",
      (ths) => ths.filter((th) => th.checkVisibility()).map((th) => th.textContent));
    found[name] = shown;
  }
}, () => { delete found.variant; delete found.players; return { cases: found }; });
