// The reference host's index page (examples/host/static/index.js), as a person creating a
// table uses it. Two hosts: one whose rules service serves, one whose service is away.
//   up    the games offered, a table created with seat 0 a person and the rest bots: the
//         game id and the join links shown
//   away  GET /api/variants answers 502: the page says why and offers nothing to create
//         (it stayed blank: the refusal was read as the list of games)
//   odd   GET /api/variants answers 200 with JSON that is not a list (a proxy's answer):
//         the same, not a page error
//
//   node tests/web/host_index.mjs UP_URL AWAY_URL
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}": what each case showed.
import { runTest, watch } from "./chromium.mjs";

const [up, away] = process.argv.slice(2);
const problems = [];
const found = {};
const read = (page) => page.evaluate(() => ({
  games: [...document.querySelectorAll("#variant option")].map((o) => o.value),
  seats: document.querySelectorAll("#seats select").length,
  error: document.querySelector("#error").hidden ? "" : document.querySelector("#error").textContent,
  submit: !document.querySelector("#create button[type=submit]").disabled,
  gameId: document.querySelector("#game-id").textContent,
  links: [...document.querySelectorAll("#links li")].map((li) => li.textContent),
}));
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  // the refused /api/variants is logged by the browser once, on the host that is away
  let refusals = 0;
  watch(page, problems, (text) => /status of 502/.test(text) && refusals++ === 0);
  await page.goto(`${up}/`);
  await page.waitForSelector("#variant option", { state: "attached" });
  found.up = { before: await read(page) };
  await page.selectOption("#seats select[name=seat-1]", "random");
  await page.click("#create button[type=submit]");
  await page.waitForSelector("#created:not([hidden]), #error:not([hidden])", { timeout: 20_000 });
  found.up.after = await read(page);

  await page.goto(`${away}/`);
  await page.waitForSelector("#error:not([hidden])", { timeout: 20_000 });
  found.away = await read(page);

  await page.route("**/api/variants", (route) => route.fulfill({ json: { message: "signed out" } }));
  await page.goto(`${up}/`);
  await page.waitForSelector("#error:not([hidden])", { timeout: 20_000 });
  found.odd = await read(page);
}, () => found);
