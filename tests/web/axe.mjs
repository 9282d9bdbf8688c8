// The table as an accessibility auditor checks it: axe-core (pinned in package.json) run in
// the page at the key moments of a game, in each CASE's language ("lang"):
//   start     the new-game form, its rule options open;
//   selected  classic for four at your turn after your draw, two cards selected, "All
//             moves" open;
//   meld      melds on the table (a position imported), a card selected;
//   buy       May I?'s buy window, yours to answer (a position imported);
//   hand-end  the result panel once West went out (a position, your discard pressed);
//   game-end  the same at the game's end.
// The positions come from test_web_table.py (POSITIONS_JSON: by moment).
//
//   node tests/web/axe.mjs BASE_URL POSITIONS_JSON CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": for each "moment:lang", axe's
// violations (rule id, impact, how many nodes, the first nodes' selectors), any problems.
import { dealPositions, discardAtYourTurn, injectAxe, newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, positionsJson, ...cases] = process.argv.slice(2);
const positions = JSON.parse(positionsJson);
const problems = [];
const found = {};
let position = ""; // the position the next deal is answered with ("": dealt as asked)
const OVER = { "hand-end": "hand-over", "game-end": "game-over" };

// axe's violations on the page as it is now.
async function audit(page) {
  await page.waitForTimeout(300); // (a flash of a move, if any, is over)
  await injectAxe(page);
  return page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
  })));
}

await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await dealPositions(context, base, () => position);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const lang of cases) {
    position = "";
    // (the game the case before left in this tab would be resumed at the load: not the start page)
    await page.evaluate(() => { try { sessionStorage.clear(); } catch { /* about:blank */ } });
    await page.goto(`${base}/play?variant=classic&players=4&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#options-box summary");
    found[`start:${lang}`] = await audit(page);

    await newGameAtYourTurn(page, base, { variant: "classic", players: 4, seed: 1, lang });
    await page.click('#actions button[data-move="draw"]');
    await page.waitForSelector("#actions button[data-move=draw]", { state: "detached" });
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await page.click("#hand .card >> nth=0");
    await page.click("#hand .card >> nth=1");
    await page.click("#moves-panel summary"); // (every listed move, in the notation)
    found[`selected:${lang}`] = await audit(page);
    await page.click("#moves-panel summary");

    position = positions.meld;
    await newGameAtYourTurn(page, base, { variant: "classic", players: 4, seed: 1, lang });
    await page.click("#hand .card >> nth=0");
    found[`meld:${lang}`] = await audit(page);

    position = positions.buy;
    await newGameAtYourTurn(page, base, { variant: "may_i", players: 3, seed: 1, lang });
    await page.waitForSelector('#actions button[data-move="buy"]');
    found[`buy:${lang}`] = await audit(page);

    for (const [moment, state] of Object.entries(OVER)) {
      position = positions[moment];
      await discardAtYourTurn(page, base, lang, "6C", (button) => page.click(button));
      await page.waitForSelector(`#status[data-state=${state}]`, { timeout: 30_000 });
      found[`${moment}:${lang}`] = await audit(page);
    }
  }
}, () => ({ moments: found }));
