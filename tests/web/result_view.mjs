// The hand's result brought into view when the hand ends, for a touch user. Each CASE
// ("kind:lang:motion:tap") starts classic Canasta for four whose deal is answered with a
// position imported (dealPositions, POSITIONS[kind]) where West goes out right after your
// discard: you tap a card and "Discard", then look at the table from the top of the page
// while the bot plays (800 ms between bot moves). Kind `hand` ends the hand, `game` the game
// too (West's side near the target); `resume` ends the hand, then goes back to the top and
// reloads (the kept game resumed at the hand's end). `motion` is the reduced-motion
// preference the page is given ("reduce" or "no-preference"); `tap` is how a tap treats the
// focus: "focus", Chromium's way (the tapped button takes it, so the page's focus logic for a
// keyboard user runs), or "keep", WebKit's (Safari's: a tapped button does not take it).
// Read once the result is shown and every scroll has ended: the status line, the scroll,
// the boxes of the result panel, of "Next hand" and of the panel's "New game" (null when
// hidden), the scroll events after the result appeared (one: at once; more: a smooth
// scroll), whether the result was in view the moment it appeared, and where the focus is.
// Kind `hand` then taps "Next hand" and reads, once the new hand is dealt and every scroll
// has ended, the scroll and the boxes of the table and of your hand (`dealt`).
//
//   node tests/web/result_view.mjs BASE_URL VIEWPORT POSITIONS_JSON CASE...
//
// VIEWPORT: "phone" (390x844) or "desktop" (1280x900); POSITIONS_JSON: {"hand": text,
// "game": text}. Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's
// findings, any problems.
import { dealPositions, runTest, watch } from "./chromium.mjs";

const [base, viewport, positionsJson, ...cases] = process.argv.slice(2);
const POSITIONS = JSON.parse(positionsJson);
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };
const problems = [];
const found = {};
let position = "";
await runTest({ viewport: SIZES[viewport], isMobile: viewport === "phone", hasTouch: true }, problems, async (context) => {
  await dealPositions(context, base, () => position);
  // what the page does once the result appears (set before its script runs, again at a reload)
  await context.addInitScript(() => {
    const seen = { shown: null, scrolls: 0, keep: false };
    window.resultSeen = seen;
    // a node's box in the viewport, to the pixel (null when hidden, or not on the page)
    window.boxOf = (node) => {
      if (!node || node.hidden) return null;
      const r = node.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
    };
    // (before the page's own listeners: a tap that keeps the focus leaves the button unfocused)
    document.addEventListener("click", () => { if (seen.keep) document.activeElement?.blur(); }, true);
    addEventListener("scroll", () => { if (seen.shown) seen.scrolls++; });
    addEventListener("DOMContentLoaded", () => {
      const panel = document.querySelector("#result-panel");
      new MutationObserver(() => {
        if (panel.hidden || seen.shown) return;
        const r = panel.getBoundingClientRect(); // (to the pixel: "nearest" aligns an edge)
        seen.shown = { inView: Math.round(r.top) >= 0 && Math.round(r.bottom) <= innerHeight };
      }).observe(panel, { attributes: true, attributeFilter: ["hidden"] });
    });
  });
  for (const name of cases) {
    const [kind, lang, motion, tap] = name.split(":");
    const page = await context.newPage(); // a tab of its own: no game kept by the case before
    watch(page, problems);
    const shown = () => page.waitForSelector("#result-panel:not([hidden]) #score-table", { timeout: 30_000 });
    position = POSITIONS[kind === "game" ? "game" : "hand"];
    await page.emulateMedia({ reducedMotion: motion });
    await page.goto(`${base}/play?variant=classic&players=4&seed=1&bot=greedy&delay=800&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.tap("#new-game");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await page.evaluate((keep) => { window.resultSeen.keep = keep; }, tap === "keep");
    await page.tap("#hand .card[data-card='6C']");
    await page.tap("#actions button[data-move='discard 6C']");
    await page.evaluate(() => window.scrollTo(0, 0)); // (the bot's move is 800 ms away)
    await shown();
    if (kind === "resume") {
      await page.waitForTimeout(1500);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.reload();
      await shown();
    }
    await page.waitForTimeout(1500); // (a smooth scroll takes a moment)
    found[name] = await page.evaluate(() => {
      const box = window.boxOf;
      const seen = window.resultSeen;
      return {
        status: document.querySelector("#status").textContent,
        state: document.querySelector("#status").dataset.state,
        inViewAtOnce: seen.shown?.inView ?? null,
        scrolls: seen.scrolls,
        y: Math.round(scrollY),
        height: innerHeight,
        pageHeight: document.documentElement.scrollHeight,
        result: box(document.querySelector("#result-panel")),
        next: box(document.querySelector("#next-hand")),
        again: box(document.querySelector("#again")),
        focus: document.activeElement?.id || document.activeElement?.tagName,
      };
    });
    if (kind === "hand") {
      await page.tap("#next-hand");
      await page.waitForSelector("#result-panel[hidden]", { state: "attached" });
      await page.waitForSelector("#board[data-hand='1']");
      await page.waitForTimeout(1500); // (a smooth scroll takes a moment)
      found[name].dealt = await page.evaluate(() => ({
        y: Math.round(scrollY),
        table: window.boxOf(document.querySelector("#table")),
        hand: window.boxOf(document.querySelector("#me")),
      }));
    }
    await page.close();
  }
}, () => ({ cases: found }));
