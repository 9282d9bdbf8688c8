// What a screen reader hears: the page's live regions (the status line, the last moves in
// the middle of the table, the selection line; aria-live="polite") as they change while a
// classic game for four is played (greedy bots, seed 5, English and Russian): your draws
// and discards for a few turns, a move typed in the box and refused, one played from it.
// Every change of a region's words is recorded (a MutationObserver) as a screen reader reads
// it (speakNames): a region written again with the
// words it already had is heard again, for nothing; a move told among the last ones is told
// once, not again with each move after it; and a card is heard by its name ("nine of
// hearts"), never as its face's suit symbol ("9♥").
//
// The typed moves are sent from the keyboard with the box's Play button (Tab, Enter): that
// button is disabled while the move is on its way, which drops the focus, and the focus must
// come back to the box, after a refused move and after one played.
//
//   node tests/web/live_regions.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's repeated
// announcements, its focus after the typed moves, any problems.
import { runTest, speakNames, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
const TURNS = 4;
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await speakNames(context);
  await context.addInitScript(() => {
    window.heard = [];
    document.addEventListener("DOMContentLoaded", () => {
      for (const node of document.querySelectorAll("[aria-live]")) {
        // what is read out: the text added (a live region's default aria-relevant)
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.type === "characterData") window.heard.push([node.id, r.target.data]);
            for (const added of r.addedNodes) window.heard.push([node.id, window.spokenName(added)]);
            // (emptied: the same words after it are news again)
            if (!r.addedNodes.length && !node.textContent) window.heard.push([node.id, ""]);
          }
        }).observe(node, { childList: true, characterData: true, subtree: true });
      }
    });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems, (text) => text.includes("400 (Bad Request)")); // the refused move's
  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
  const typed = async (move) => {
    const logged = await page.$eval("#log", (el) => el.dataset.count);
    await page.fill("#move-text", move);
    await page.focus("#move-text");
    await page.keyboard.press("Tab"); // to Play
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => !document.querySelector("#error").hidden
      || (document.querySelector("#log").dataset.count !== n
        && document.querySelector("#status").dataset.state === "your-turn"), logged, { timeout: 30_000 });
    await page.waitForTimeout(200);
    return focused();
  };
  for (const lang of cases) {
    const seen = {};
    await page.goto(`${base}/play?variant=classic&players=4&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    // what was heard before: the game this tab kept, resumed at the load (its log counted apart)
    const before = await page.evaluate(() => window.heard.length);
    for (let turn = 0; turn < TURNS; turn++) {
      await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
      await page.click('#actions button[data-move="draw"]');
      await page.waitForSelector("#actions button[data-move=draw]", { state: "detached" });
      await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
      await page.click("#hand .card >> nth=0");
      await page.click('#actions button[data-move^="discard "]');
    }
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await page.click("#moves-panel summary");
    seen.refusedFocus = await typed("meld 4D 4D 4D");
    seen.refused = await page.$eval("#error", (el) => el.dataset.reason ?? "");
    seen.playedFocus = await typed("draw");
    // the same words twice in a row in one region
    seen.repeated = await page.evaluate(() => window.heard.filter(([id, text], i) => text
      && window.heard.slice(0, i).findLast(([other]) => other === id)?.[1] === text).map(([id, text]) => `${id}: ${text}`));
    seen.heard = await page.evaluate(() => window.heard.length);
    seen.symbols = await page.evaluate(() => window.heard.filter(([, text]) => /[♠♥♦♣]/.test(text))
      .map(([id, text]) => `${id}: ${text}`));
    // the moves told in the middle of the table (sentences joined by " · ") against the
    // entries of the log: each move is told once
    seen.toldMoves = await page.evaluate((from) => window.heard.slice(from).filter(([id]) => id === "last-action")
      .flatMap(([, text]) => text.split(" · ").filter(Boolean)).length, before);
    seen.logged = await page.$eval("#log", (el) => Number(el.dataset.count));
    found[lang] = seen;
  }
}, () => ({ cases: found }));
