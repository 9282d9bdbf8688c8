// The reference host's seat page (examples/host/static/seat.js), as a player sees it: what
// it shows of the table, read once the board is drawn, for each link given (a join link).
//   status  the status line
//   sides   each side's heading
//   melds   each meld's line
//   seats   each seat's line
//   out     the seats whose line is drawn as sitting the hand out (dashed, class "out")
//   contract  May I?'s contract line ("" when hidden)
//   target  the line of what ends the game: its score, or the deal of how many ("" when hidden)
//   result  the result's lines (each side's totals), once the hand is over
//   over    the result's heading ("" before the hand is over)
//   heaps   the stock's and the discard pile's line
//   order   the line of the hand's order of play ("" when hidden)
//   selection  the line under the hand (what a selection makes, or why there is no move)
//   rules   the line of the game's counts (draw, canastas to go out, wild cards; "" when hidden)
//
// A link after "--ones" is shown with every count of cards made 1 (the stock, the pile and
// each hand, in the host's state messages), for the words of one card; after "--hand=H"
// with the view's hand_no made H, as at a later deal; after "--older" with no seats_in_play,
// as an older service's view (nor the game's counts); after "--draw" with the view's winner
// -1, as a game drawn; after "--third" with seats_in_play 0, 3, 2, 4, as classic for five's
// third hand (CL-P5-3).
//   node tests/web/host_seat.mjs LINK... [--ones LINK...] [--hand=H LINK...] [--older LINK...]
//     [--draw LINK...] [--third LINK...]
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}": what each page showed.
import { runTest, watch } from "./chromium.mjs";

// Each link with what the page is shown in place of the host's view: the view itself, or
// the one the last flag before the link makes of it.
const changes = {
  "--ones": (view) => {
    Object.assign(view, { stock_size: 1, pile_size: 1 });
    view.hand_sizes = view.hand_sizes.map(() => 1);
  },
  "--older": (view) => {
    for (const field of ["seats_in_play", "draw_count", "canastas_to_go_out", "wild_limit"]) delete view[field];
  },
  "--draw": (view) => { view.winner = -1; },
  "--third": (view) => { view.seats_in_play = [0, 3, 2, 4]; },
};
const links = [];
let change = null;
for (const arg of process.argv.slice(2)) {
  const hand = /^--hand=(\d+)$/.exec(arg);
  if (hand) change = (view) => { view.hand_no = Number(hand[1]); };
  else if (arg in changes) change = changes[arg];
  else links.push({ link: arg, change });
}
const problems = [];
const pages = [];
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  let shown = null; // the change the current link's views get, null none
  let routed = false; // the host's messages pass through the test once a change is asked
  for (const { link, change: now } of links) {
    shown = now;
    if (now && !routed) {
      routed = true;
      await page.routeWebSocket(/\/ws\//, (ws) => {
        const server = ws.connectToServer();
        server.onMessage((text) => {
          const message = JSON.parse(text);
          if (message.view && shown) shown(message.view);
          ws.send(JSON.stringify(message));
        });
      });
    }
    await page.goto("about:blank"); // a link twice in a row is loaded again, not scrolled to
    await page.goto(link);
    await page.waitForSelector("#board:not([hidden])", { timeout: 20_000 });
    pages.push(await page.evaluate(() => ({
      status: document.querySelector("#status").textContent,
      sides: [...document.querySelectorAll("#sides h3")].map((h) => h.textContent),
      melds: [...document.querySelectorAll("#sides .meld")].map((p) => p.textContent),
      seats: [...document.querySelectorAll("#seats li")].map((li) => li.textContent),
      out: [...document.querySelectorAll("#seats li")].flatMap((li, s) => (li.classList.contains("out") ? [s] : [])),
      contract: document.querySelector("#contract:not([hidden])")?.textContent ?? "",
      target: document.querySelector("#target:not([hidden])")?.textContent ?? "",
      result: [...document.querySelectorAll("#result p")].map((p) => p.textContent),
      over: document.querySelector("#result h3")?.textContent ?? "",
      heaps: document.querySelector("#heaps").textContent,
      order: document.querySelector("#order:not([hidden])")?.textContent ?? "",
      selection: document.querySelector("#selection").textContent,
      rules: document.querySelector("#rules:not([hidden])")?.textContent ?? "",
    })));
  }
}, () => ({ pages }));
