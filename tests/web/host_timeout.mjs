// The reference host's pages (examples/host/static) with a host that takes a call and never
// answers it, each page opened with `?timeout=1500` (a call's deadline, 10 s unless set):
//   join    the seat page's first socket is taken and never answered (no state for the
//           seat's join): `statuses`, the status lines until the page shows its table, joined
//           again on a socket the host answers (`sockets`, how many it opened)
//   record  "Download my record" never answered: the error line; then answered, pressed again:
//           the error line (hidden: "")
//   index   the index page's list of games never answered: the error line and whether a
//           table can be created; then answered, the page loaded again: the games offered
//
//   node tests/web/host_timeout.mjs LINK BASE   (a join link, the host's URL)
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}".
import { runTest, watch } from "./chromium.mjs";

const [link, base] = process.argv.slice(2);
const problems = [];
const found = {};
const errorLine = (page) => page.evaluate(() => (document.querySelector("#error").hidden ? ""
  : document.querySelector("#error").textContent));
// a route held for ever: the host took the call and hangs (`held`, to let it go at the end)
const held = [];
const hang = (route) => { held.push(route); };
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  let sockets = 0;
  await page.routeWebSocket(/\/ws\//, (ws) => {
    if (++sockets > 1) ws.connectToServer(); // the first is never answered
  });
  await page.addInitScript(() => {
    window.statuses = [];
    document.addEventListener("DOMContentLoaded", () => {
      const status = document.querySelector("#status");
      if (!status) return; // (the index page has none)
      window.statuses.push(status.textContent);
      new MutationObserver(() => window.statuses.push(status.textContent))
        .observe(status, { childList: true, characterData: true, subtree: true });
    });
  });
  const [page0, fragment] = link.split("#");
  await page.goto(`${page0}?timeout=1500#${fragment}`);
  await page.waitForFunction(() => /^Hand \d+, move \d+:/.test(document.querySelector("#status").textContent),
    null, { timeout: 20_000 });
  found.join = { statuses: await page.evaluate(() => window.statuses), sockets };

  await page.route("**/api/tables/*/record*", hang);
  await page.click("#record");
  await page.waitForFunction(() => document.querySelector("#error").textContent, null, { timeout: 10_000 });
  found.record = { late: await errorLine(page) };
  await page.unroute("**/api/tables/*/record*");
  await page.click("#record");
  await page.waitForFunction(() => !document.querySelector("#error").textContent, null, { timeout: 10_000 })
    .catch(() => {});
  found.record.again = await errorLine(page);

  await page.route("**/api/variants", hang);
  await page.goto(`${base}/?timeout=1500`);
  await page.waitForSelector("#error:not([hidden])", { timeout: 10_000 });
  found.index = { late: await errorLine(page),
    submit: await page.$eval("#create button[type=submit]", (b) => !b.disabled) };
  await page.unroute("**/api/variants");
  await page.goto(`${base}/?timeout=1500`);
  await page.waitForSelector("#variant option", { state: "attached", timeout: 10_000 });
  found.index.again = { error: await errorLine(page), games: await page.$$eval("#variant option", (os) => os.length) };
  await Promise.all(held.map((route) => route.continue().catch(() => {})));
}, () => found);
