// The game's end for a keyboard user, and "New game" pressed. Each CASE ("lang") starts
// classic Canasta for four whose deal is answered with a position imported (dealPositions)
// where West goes out right after your discard and ends the game. You select 6C and press
// "Discard" with Enter; once the result is shown the test reads where the focus is, the
// result panel's "New game" (its words, what a screen reader reads with it) and what the
// status line's live region said meanwhile. Then Enter on the focused button, and a click
// on the form's "New game" at the top: the deals each sent, and the page once
// it is your turn (its state, its hand, where the focus is). At the end it reads the result's
// heading and the scores' column heads shown.
//
//   node tests/web/game_over.mjs BASE_URL POSITION CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { dealPositions, discardAtYourTurn, hearStatus, runTest, watch } from "./chromium.mjs";

const [base, position, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let deals = 0;
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await dealPositions(context, base, () => position);
  // every deal the page asks for (answered by dealPositions: a route added later runs first)
  await context.route("**/v1/deal", (route) => { deals++; return route.fallback(); });
  await hearStatus(context);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  const focused = () => page.evaluate(() => (document.activeElement?.closest("#hand") ? "hand"
    : document.activeElement?.id || document.activeElement?.tagName));
  // a new game dealt, and your turn in it: the deals sent for it (one press's worth, or two)
  const dealtOnce = async (press) => {
    deals = 0;
    await press();
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await page.waitForTimeout(500); // a second deal, if one was sent, would be back by now
    return {
      deals,
      state: await page.$eval("#status", (el) => el.dataset.state),
      hand: await page.$$eval("#hand .card", (cards) => cards.map((c) => c.dataset.card)),
      result: await page.$eval("#result-panel", (el) => !el.hidden),
      focus: await focused(),
    };
  };
  for (const lang of cases) {
    await discardAtYourTurn(page, base, lang, "6C", async (button) => {
      await page.focus(button);
      await page.keyboard.press("Enter");
    });
    await page.waitForSelector("#status[data-state=game-over]", { timeout: 30_000 });
    await page.waitForTimeout(300); // (the page's focus logic runs once the result is drawn)
    const over = await page.evaluate(() => {
      const again = document.querySelector("#result-panel #again");
      const described = again?.getAttribute("aria-describedby");
      return {
        heard: window.heard,
        status: document.querySelector("#status").textContent,
        gameResult: document.querySelector("#game-result")?.textContent ?? null,
        again: again && !again.hidden ? again.textContent : null,
        described: described ? document.getElementById(described)?.textContent ?? null : null,
        nextHand: !document.querySelector("#next-hand").hidden,
        top: document.querySelector("#new-game").textContent,
        heading: document.querySelector("#result-panel h2").textContent,
        scoresHead: [...document.querySelectorAll("#scores thead th")].filter((th) => th.checkVisibility())
          .map((th) => th.textContent),
      };
    });
    over.focus = await focused();
    const again = await dealtOnce(() => page.keyboard.press("Enter"));
    const top = await dealtOnce(() => page.click("#new-game"));
    found[lang] = { over, again, top };
  }
}, () => ({ cases: found }));
