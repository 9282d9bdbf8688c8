// The reference host's seat page (examples/host/static/seat.js), as a player sees it: what
// it shows of the table, read once the board is drawn, for each link given (a join link).
//   status  the status line
//   sides   each side's heading
//   melds   each meld's line
//   seats   each seat's line
//   contract  May I?'s contract line ("" when hidden)
//   target  the line of the score that ends the game ("" when hidden)
//   result  the result's lines (each side's totals), once the hand is over
//   heaps   the stock's and the discard pile's line
//
// A link after "--ones" is shown with every count of cards made 1 (the stock, the pile and
// each hand, in the host's state messages), for the words of one card.
//   node tests/web/host_seat.mjs LINK... [--ones LINK...]
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}": what each page showed.
import { runTest, watch } from "./chromium.mjs";

const args = process.argv.slice(2);
const ones = args.includes("--ones") ? args.indexOf("--ones") : args.length;
const links = args.filter((a) => a !== "--ones");
const problems = [];
const pages = [];
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const [i, link] of links.entries()) {
    if (i === ones) {
      await page.routeWebSocket(/\/ws\//, (ws) => {
        const server = ws.connectToServer();
        server.onMessage((text) => {
          const message = JSON.parse(text);
          if (message.view) {
            Object.assign(message.view, { stock_size: 1, pile_size: 1 });
            message.view.hand_sizes = message.view.hand_sizes.map(() => 1);
          }
          ws.send(JSON.stringify(message));
        });
      });
    }
    await page.goto(link);
    await page.waitForSelector("#board:not([hidden])", { timeout: 20_000 });
    pages.push(await page.evaluate(() => ({
      status: document.querySelector("#status").textContent,
      sides: [...document.querySelectorAll("#sides h3")].map((h) => h.textContent),
      melds: [...document.querySelectorAll("#sides .meld")].map((p) => p.textContent),
      seats: [...document.querySelectorAll("#seats li")].map((li) => li.textContent),
      contract: document.querySelector("#contract:not([hidden])")?.textContent ?? "",
      target: document.querySelector("#target:not([hidden])")?.textContent ?? "",
      result: [...document.querySelectorAll("#result p")].map((p) => p.textContent),
      heaps: document.querySelector("#heaps").textContent,
    })));
  }
}, () => ({ pages }));
