// What the status line tells between a hand's end and its score. Each CASE ("kind:lang",
// kind "hand" or "game") starts classic Canasta for four whose deal is answered with the
// position POSITIONS[kind] imported (dealPositions), where West goes out right after your
// discard of 6C: the hand ends, and at "game" the game too. The answer of ScoreHand is held
// until the test has read the status line meanwhile; then it reads the status line once the
// result is shown, and every text its live region took since your discard (hearStatus),
// what a screen reader heard.
//
//   node tests/web/scoring.mjs BASE_URL POSITIONS_JSON CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { dealPositions, discardAtYourTurn, hearStatus, runTest, watch } from "./chromium.mjs";

const [base, positions, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let kind = "";
// the ScoreHand call held, once armed at your discard (a kept game resumed at the page's
// load scores its hand too, unheld): `seen` once it is asked, answered on `release()`
let held = null;
const hold = () => {
  let asked;
  let release;
  const seen = new Promise((done) => { asked = done; });
  const released = new Promise((done) => { release = done; });
  held = { seen, asked, released, release };
};
const OVER = "#status[data-state=hand-over], #status[data-state=game-over]";
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await dealPositions(context, base, () => JSON.parse(positions)[kind]);
  await context.route("**/v1/score-hand", async (route) => {
    if (!held) return route.continue();
    held.asked();
    await held.released;
    await route.continue();
  });
  await hearStatus(context);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  const status = () => page.$eval("#status", (el) => ({ state: el.dataset.state, text: el.textContent }));
  for (const name of cases) {
    const lang = name.split(":")[1];
    kind = name.split(":")[0];
    held = null;
    await discardAtYourTurn(page, base, lang, "6C", async (button) => {
      hold();
      await page.click(button);
    });
    await held.seen;
    await page.waitForTimeout(300); // (West's move is drawn before the score is asked)
    const scoring = { ...await status(), rules: await page.$eval("#rules", (el) => el.textContent),
      result: await page.$eval("#result-panel", (el) => !el.hidden) };
    held.release();
    await page.waitForSelector(OVER, { timeout: 30_000 });
    await page.waitForTimeout(300);
    found[name] = { scoring, over: await status(), heard: await page.evaluate(() => window.heard) };
  }
}, () => ({ cases: found }));
