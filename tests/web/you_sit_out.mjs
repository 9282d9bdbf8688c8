// Your seat sits a hand out: classic Canasta for six with p6_mode=rotation deals four seats
// each hand (CL-P6-11), and the second hand leaves out seats 0 and 1. Each CASE ("lang")
// answers a new game's deal with that hand imported, holds the bots' first move to read the
// page while the bots play it (status, your hand, the moves offered, the rules panel, the
// melds' headings and names), lets them play the hand out, reads the hand's end, and presses "Next
// hand": the third hand deals you in, and it is your turn.
//
//   node tests/web/you_sit_out.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": what each case read, any problems.
import { dealPositions, gate, runTest, sideHeadings, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};

// The second hand of six in rotation: seats 2 3 4 5 play it, seat 5 deals, seat 2 draws first.
const POSITION = ["canasta-position 1", "variant: classic", "players: 6", "options: p6_mode=rotation",
  "hand: 1", "dealer: 5", "hand0: -", "hand1: -", ...[2, 3, 4, 5].map((s) => `hand${s}: *11`),
  "pile: *1", "stock: *", ""].join("\n");

let held = null; // the gate the bots' first move of a case is held at (gate())

// What the page shows of your seat and the table: the status, your hand, the moves offered,
// the rules panel, the melds' headings and their names for screen readers, the order of play.
async function readTable(page) {
  const seen = await page.evaluate(() => {
    const text = (sel) => document.querySelector(sel)?.textContent ?? "";
    return {
      state: document.querySelector("#status").dataset.state,
      status: text("#status"),
      hand: text("#hand"),
      handCount: text("#hand-count"),
      meOut: document.querySelector("#me").classList.contains("out"),
      actions: document.querySelectorAll("#actions button").length,
      moves: document.querySelectorAll("#moves button").length,
      hintDisabled: document.querySelector("#hint").disabled,
      order: document.querySelector("#play-order").hidden ? "" : text("#play-order"),
      rules: [...document.querySelectorAll("#rules li")].map((li) => li.textContent),
      labels: Object.fromEntries([...document.querySelectorAll(".side-melds")].map((s) => [
        s.dataset.team, s.getAttribute("aria-label")])),
    };
  });
  return { ...seen, heads: await sideHeadings(page) };
}

await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await dealPositions(context, base, () => POSITION);
  await context.route("**/v1/apply-move", async (route) => {
    const hold = held;
    held = null;
    if (hold) await hold.wait();
    await route.continue();
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const lang of cases) {
    const { reached, release } = held = gate();
    await page.goto(`${base}/play?variant=classic&players=6&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await reached;
    const playing = await readTable(page);
    release();
    await page.waitForSelector("#status[data-state=hand-over]", { timeout: 120_000 });
    const over = {
      status: await page.$eval("#status", (s) => s.textContent),
      nextHand: await page.$eval("#next-hand", (b) => !b.hidden && !b.disabled),
    };
    await page.click("#next-hand");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 60_000 });
    const next = await readTable(page);
    next.cards = await page.$$eval("#hand .card", (cards) => cards.length);
    found[lang] = { playing, over, next };
  }
}, () => ({ cases: found }));
