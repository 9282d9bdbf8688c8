// The reference host's seat page (examples/host/static/seat.js) when its socket is down: the
// first socket is closed (1011, as the host closes one to join again) once the page shows
// its moves, a move is clicked before the page has joined again, and the page is read; then
// a move is clicked on the page joined again.
//   error    what the page said of the click
//   sent     the moves that reached the host from the page, while it was down or after,
//            until it had joined again
//   status   the status line once the page had joined again
//   after    what the page's error line said then ("" when hidden)
//   played   the move clicked then: {sent: the moves that reached the host, status: the
//            status line once the host's next state came}
//
//   node tests/web/host_offline.mjs LINK   (a join link to a seat whose move is due)
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}".
import { runTest, watch } from "./chromium.mjs";

const [link] = process.argv.slice(2);
const problems = [];
const sent = [];
let error = null;
let status = null;
let after = null;
let joined = 0; // the moves sent until the page had joined again
let played = null;
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  let sockets = 0;
  await page.routeWebSocket(/\/ws\//, (ws) => {
    const first = ++sockets === 1;
    const server = ws.connectToServer();
    ws.onMessage((text) => {
      if (JSON.parse(text).type === "move") sent.push(text);
      server.send(text);
    });
    server.onMessage((text) => {
      ws.send(text);
      if (first && JSON.parse(text).view?.legal_moves?.length) ws.close({ code: 1011 });
    });
  });
  await page.goto(link);
  await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Disconnected"));
  await page.click("#moves button"); // the page joins again 2 s after the close
  error = await page.textContent("#error");
  await page.waitForFunction(() => /^Hand \d+, move \d+: your move/.test(document.querySelector("#status").textContent),
    null, { timeout: 20_000 });
  status = await page.textContent("#status");
  after = await page.evaluate(() => (document.querySelector("#error").hidden ? ""
    : document.querySelector("#error").textContent));
  joined = sent.length;
  await page.click("#moves button");
  await page.waitForFunction((shown) => document.querySelector("#status").textContent !== shown,
    status, { timeout: 20_000 });
  played = await page.textContent("#status");
}, () => ({ error, sent: sent.slice(0, joined), status, after,
  played: played && { sent: sent.slice(joined), status: played } }));
