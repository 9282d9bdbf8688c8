// What the status line tells between a hand's end and its score. Each CASE ("kind:lang",
// kind "hand" or "game") starts classic Canasta for four whose deal is answered with the
// position POSITIONS[kind] imported (dealPositions), where West goes out right after your
// discard of 6C: the hand ends, and at "game" the game too. The answer of ScoreHand is held
// until the test has read the status line meanwhile; then it reads the status line once the
// result is shown, and every text its live region took since your discard (hearStatus),
// what a screen reader heard.
// A CASE "kind:lang+down" has ScoreHand refused instead (the network to the service cut):
// it reads the status line, the rules panel and the result once the game has stopped, then
// with the service back presses "Try again" and reads them once the score is shown.
//
//   node tests/web/scoring.mjs BASE_URL POSITIONS_JSON CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { dealPositions, discardAtYourTurn, gate, hearStatus, runTest, watch } from "./chromium.mjs";

const [base, positions, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let kind = "";
// the gate the ScoreHand call is held at (gate()), once armed at your discard (a kept game
// resumed at the page's load scores its hand too, unheld)
let held = null;
let down = false; // ScoreHand refused, from your discard of a "+down" case till "Try again"
const OVER = "#status[data-state=hand-over], #status[data-state=game-over]";
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await dealPositions(context, base, () => JSON.parse(positions)[kind]);
  await context.route("**/v1/score-hand", async (route) => {
    if (down) return route.abort("connectionrefused");
    if (held) await held.wait();
    await route.continue();
  });
  await hearStatus(context);
  const page = context.pages()[0] ?? await context.newPage();
  // (the refused connection is logged by the browser; the page's error is read here)
  watch(page, problems, (text) => down && text.includes("ERR_CONNECTION_REFUSED"));
  const status = () => page.$eval("#status", (el) => ({ state: el.dataset.state, text: el.textContent }));
  // (`heading`: the result panel's heading; `above`: whether it stands above the rules panel)
  const shown = async () => ({ ...await status(), rules: await page.$eval("#rules", (el) => el.textContent),
    result: await page.$eval("#result-panel", (el) => !el.hidden),
    heading: await page.$eval("#result-panel h2", (el) => el.textContent),
    above: await page.evaluate(() => document.querySelector("#result-panel").getBoundingClientRect().bottom
      <= document.querySelector("#rules-panel").getBoundingClientRect().top) });
  for (const name of cases) {
    const [game, tail] = name.split("+");
    const lang = game.split(":")[1];
    kind = game.split(":")[0];
    held = null;
    if (tail === "down") {
      await discardAtYourTurn(page, base, lang, "6C", async (button) => {
        down = true;
        await page.click(button);
      });
      await page.waitForSelector("#status[data-state=stalled]", { timeout: 30_000 });
      const stalled = await shown();
      down = false;
      await page.click("#retry");
      await page.waitForSelector(OVER, { timeout: 30_000 });
      found[name] = { stalled, over: await shown() };
      continue;
    }
    await discardAtYourTurn(page, base, lang, "6C", async (button) => {
      held = gate();
      await page.click(button);
    });
    await held.reached;
    await page.waitForTimeout(300); // (West's move is drawn before the score is asked)
    const scoring = await shown();
    held.release();
    await page.waitForSelector(OVER, { timeout: 30_000 });
    await page.waitForTimeout(300);
    found[name] = { scoring, over: await status(), heard: await page.evaluate(() => window.heard) };
  }
}, () => ({ cases: found }));
