// A turn of classic Canasta for four played with the keyboard alone. Each CASE ("lang") opens
// the page and, from its first Tab on: Tab to "New game", Enter; Tab to the draw, Enter; in
// your hand the KEYS_JSON keys (arrows, Home, End, Space, Enter, Escape: the last of them
// leaves a card selected); Tab to its discard, Enter, and the bots play till it is your turn
// again (a step "bots": the focus while they play, 300 ms before each of their moves). After each key: where the focus is (a hand card by position, a move button by its
// move, a language button by its language, else the element's id or tag), whether it is seen
// (:focus-visible matches, an outline drawn), the hand's one Tab stop (the card of tabindex
// 0), the hand's size and the cards selected.
//
//   node tests/web/keyboard.mjs BASE_URL KEYS_JSON CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's steps, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, keysJson, ...cases] = process.argv.slice(2);
const keys = JSON.parse(keysJson);
const problems = [];
const found = {};
const TABS = 20; // (more Tab stops than the page has before the table's moves)

// The focus now, as the test reports it.
const focusNow = (page) => page.evaluate(() => {
  const a = document.activeElement;
  const cards = [...document.querySelectorAll("#hand .card")];
  const hand = { tabStop: cards.findIndex((b) => b.tabIndex === 0), size: cards.length,
    selected: cards.filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => Number(b.dataset.index)) };
  if (!a || a === document.body) return { at: "body", visible: false, outline: false, ...hand };
  const at = a.closest("#hand") ? `hand:${a.dataset.index}` : a.dataset.move ? `move:${a.dataset.move}`
    : a.dataset.lang ? `lang:${a.dataset.lang}` : a.id || a.tagName.toLowerCase();
  const style = getComputedStyle(a);
  return { at, visible: a.matches(":focus-visible"),
    outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0, ...hand };
});

await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const lang of cases) {
    const steps = [];
    found[lang] = steps; // (what a case that failed half-way did is shown too)
    const press = async (key) => {
      await page.keyboard.press(key);
      steps.push({ key, ...(await focusNow(page)) });
    };
    // Tab till `selector` has the focus; every stop on the way is a step
    const tabTo = async (selector) => {
      for (let i = 0; i < TABS; i++) {
        await press("Tab");
        if (await page.$eval(selector, (b) => b === document.activeElement).catch(() => false)) return;
      }
      throw new Error(`${lang}: no Tab reached ${selector}`);
    };
    // a move pressed: your turn again, the page's focus logic done (the focus off the body)
    const settled = async (key) => {
      await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
      await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 10_000 })
        .catch(() => {});
      steps.push({ key, ...(await focusNow(page)) });
    };
    await page.goto(`${base}/play?variant=classic&players=4&seed=1&bot=greedy&delay=300&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await tabTo("#new-game");
    await page.keyboard.press("Enter");
    await settled("Enter");
    await tabTo('#actions button[data-move="draw"]');
    await page.keyboard.press("Enter");
    await page.waitForSelector('#actions button[data-move="draw"]', { state: "detached" });
    await settled("Enter");
    for (const key of keys) await press(key);
    await tabTo("#actions button[data-move^=discard]");
    await page.keyboard.press("Enter");
    // while the bots play (a delay of 300 ms before each move): where the focus waits
    await page.waitForSelector("#status[data-state=bots]", { timeout: 10_000 });
    await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 250 })
      .catch(() => {});
    steps.push({ key: "bots", ...(await focusNow(page)) });
    await page.waitForSelector('#actions button[data-move="draw"]', { timeout: 30_000 });
    await settled("Enter");
  }
}, () => ({ cases: found }));
