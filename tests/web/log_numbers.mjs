// The numbers of the log ("What happened"), a long hand: a classic game for four (greedy
// bots, seed 7) played by drawing and discarding the first card until the log holds more
// entries than it shows (60) and numbers of three digits, then "New game". At each of your
// turns the numbers the list shows (an <ol reversed>: its start, else its count, down by one,
// as the browser numbers it) are read beside the count of entries logged (data-count): the
// newest entry must be numbered with that count, each one below one less, so that an entry
// keeps its number; and whether the newest number ("105. ", in the list's font) fits in the
// list's left padding, where the browser draws it (clipped by the scrolling list beyond).
//
//   node tests/web/log_numbers.mjs BASE_URL
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each turn's numbers, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base] = process.argv.slice(2);
const problems = [];
const turns = []; // { logged, shown, first, last, fits }
let fresh = null; // the same, after "New game"
const TURN = "#status[data-state=your-turn], #status[data-state=hand-over], #status[data-state=game-over]";
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  // the numbers shown, by the rules of an ordered list: a value of an item's own, else the
  // list's start (reversed: its count of items by default), one down at each item
  const numbers = () => page.evaluate(() => {
    const list = document.querySelector("#log");
    const items = [...list.children];
    let next = list.hasAttribute("start") ? list.start : items.length;
    const shown = [];
    for (const li of items) {
      if (li.hasAttribute("value")) next = li.value;
      shown.push(next--);
    }
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = getComputedStyle(items[0]).font;
    // (the marker "105. " ends where the item starts: its ink starts its width, less the
    // first digit's bearing, to the left; a pixel's antialiasing let go)
    const marker = pen.measureText(`${shown[0]}. `);
    const fits = marker.width + marker.actualBoundingBoxLeft <= parseFloat(getComputedStyle(list).paddingLeft) + 1;
    return { logged: Number(list.dataset.count), shown: shown.length, first: shown[0], last: shown.at(-1), fits };
  });
  const logged = () => page.$eval("#log", (el) => el.dataset.count);
  await page.goto(`${base}/play?variant=classic&players=4&seed=7&bot=greedy&delay=0&lang=en`);
  await page.waitForSelector("body[data-ready=true]");
  await page.click("#new-game");
  while (turns.length < 60) {
    await page.waitForSelector(TURN, { timeout: 30_000 });
    if (await page.$("#status[data-state=hand-over], #status[data-state=game-over]")) break;
    turns.push(await numbers());
    if (turns.at(-1).logged > 105) break;
    const before = await logged();
    // draw; your partner's "may I go out?" answered no; else discard your first card
    const move = await page.$('#actions button.action.draw, #actions button.action.no');
    if (move) {
      await move.click();
    } else {
      await page.click("#hand .card");
      await page.click("#actions button.action.discard");
    }
    await page.waitForFunction((n) => document.querySelector("#log").dataset.count !== n, before);
  }
  await page.click("#new-game");
  await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
  fresh = await numbers();
}, () => ({ turns, fresh }));
