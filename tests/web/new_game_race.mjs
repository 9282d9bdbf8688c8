// "New game" pressed while the bots of the game before are moving: the old game's bots
// must stop. You draw and discard (classic, 4 players, the bots DELAY ms apart); as soon
// as the first bot's move is answered (its loop now waits DELAY before the next), the
// test starts a new game with another seed. The new game must open at your turn (seat 0
// awaited, draw phase, the dealt hand), and no move may be sent after the new deal until
// you act: the old loop must neither play the new game's first move for you nor let an
// old answer replace the new game.
//
//   node tests/web/new_game_race.mjs BASE_URL
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": the calls sent after the
// new deal was asked for, the page's state and hand against the deal's, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base] = process.argv.slice(2);
const DELAY = 300;
const problems = [];
// every API call the page sent, in order: { path, seat (the move's seat, bots' calls),
// snapshot, whether the new game's deal had been answered then }
const sent = [];
let newDealAnswered = false;
let result = {};
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  page.on("request", (req) => {
    const path = new URL(req.url()).pathname;
    if (!path.startsWith("/v1/")) return;
    let body = {};
    try { body = JSON.parse(req.postData() ?? "{}"); } catch { /* a GET */ }
    sent.push({ path, seat: body.seat ?? null, snapshot: body.snapshot ?? "", afterDeal: newDealAnswered });
  });
  await page.goto(`${base}/play?variant=classic&players=4&seed=3&bot=greedy&delay=${DELAY}&lang=en`);
  await page.waitForSelector("body[data-ready=true]");
  await page.click("#new-game");
  const yourTurn = () => page.waitForFunction(() => document.querySelector("#status").dataset.state === "your-turn"
    && !document.querySelector("#hint").disabled, null, { timeout: 30_000 });
  await yourTurn();
  await page.click('#actions button.action[data-move="draw"]');
  await yourTurn();
  await page.evaluate(() => { document.querySelector("#moves-panel").open = true; });
  // the first bot's move answered: its loop sleeps DELAY before the next
  const botMoved = page.waitForResponse((r) => r.url().endsWith("/v1/apply-move")
    && JSON.parse(r.request().postData() ?? "{}").seat > 0, { timeout: 30_000 });
  await page.click('#moves button.move[data-move^="discard"]');
  await botMoved;
  const botsWere = await page.$eval("#status", (el) => el.dataset.state);
  await page.fill("#seed", "99");
  const dealt = page.waitForResponse((r) => r.url().endsWith("/v1/deal"), { timeout: 30_000 });
  const from = sent.length;
  await page.click("#new-game");
  const deal = await (await dealt).json();
  newDealAnswered = true;
  // time for the old loop to wake (DELAY) and for any call it then sends to be answered
  await page.waitForTimeout(DELAY * 6);
  const view = deal.views[0];
  const after = sent.slice(from);
  result = {
    botsWere,
    // the calls sent since the click (an old game's call may still leave before the page
    // handles it) and those sent once the new deal was answered (none may)
    after: after.map((c) => c.path + (c.seat === null ? "" : ` seat ${c.seat}`)),
    afterDeal: after.filter((c) => c.afterDeal).map((c) => c.path + (c.seat === null ? "" : ` seat ${c.seat}`)),
    movesForNewGame: after.filter((c) => c.path !== "/v1/deal" && c.snapshot === deal.snapshot).length,
    dealt: { awaited: view.awaited ?? 0, phase: view.phase, hand: view.hand },
    page: await page.evaluate(() => ({
      state: document.querySelector("#status").dataset.state,
      hand: [...document.querySelectorAll("#hand .card")].map((c) => c.dataset.card),
      draw: !!document.querySelector('#actions button.action[data-move="draw"]:not([disabled])'),
      logged: Number(document.querySelector("#log").dataset.count ?? 0),
      error: document.querySelector("#error").hidden ? "" : document.querySelector("#error").textContent,
    })),
  };
}, () => result);
