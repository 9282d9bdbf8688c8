// The reference host's seat page (examples/host/static/seat.js) under the host's
// Content-Security-Policy, its socket not routed by the test: the page joins over its own
// origin's ws:, and a move clicked is played; then a script on the page opens a WebSocket to
// another origin (the same server, named localhost in place of 127.0.0.1), and what came of it.
//   before   the status line when the seat's move was due
//   after    the status line once the host's next state came
//   other    the other origin's socket: {blocked: the directive it violated}, else {opened},
//            {failed} or {thrown: the error's name}
//
//   node tests/web/host_connect.mjs LINK   (a join link on 127.0.0.1 to a seat whose move is due)
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}".
import { runTest, watch } from "./chromium.mjs";

const [link] = process.argv.slice(2);
const problems = [];
const shown = {};
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  // the browser's own console line for the other origin's socket it refused
  watch(page, problems, (text) => /'ws:\/\/localhost:\d+\/ws\/none\/0' violates/.test(text));
  await page.goto(link);
  await page.waitForFunction(() => /^Hand \d+, move \d+: your move/.test(document.querySelector("#status").textContent),
    null, { timeout: 20_000 });
  shown.before = await page.textContent("#status");
  await page.click("#moves button");
  await page.waitForFunction((was) => document.querySelector("#status").textContent !== was,
    shown.before, { timeout: 20_000 });
  shown.after = await page.textContent("#status");
  shown.other = await page.evaluate(() => new Promise((done) => {
    const url = `ws://localhost:${location.port}/ws/none/0`;
    document.addEventListener("securitypolicyviolation",
      (event) => done({ blocked: event.effectiveDirective }), { once: true });
    try {
      const socket = new WebSocket(url);
      socket.addEventListener("open", () => done({ opened: true }));
      socket.addEventListener("error", () => setTimeout(() => done({ failed: true }), 1000));
    } catch (err) {
      setTimeout(() => done({ thrown: err.name }), 1000); // the violation's event, if any, first
    }
  }));
}, () => shown);
