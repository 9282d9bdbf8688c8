// The reference host's index page (examples/host/static/index.js) with a game's rule
// options, and the seat page (seat.js) of the table made with them. Each CASE is
// "VARIANT:PLAYERS" then NAME=VALUE options: the page is set to that game and count, each
// option's field given its value, and the table created; the seat page of its first join
// link is then read (or, when the host refused the table, the refusal the index page shows).
//   offered   the options the page offers, by name: {value, placeholder, doc, inputMode}
//   refused   what the index page said (its #error), "" when the table was made
//   seat      the seat page's rule options line and its line of what ends the game
//
//   node tests/web/host_options.mjs BASE_URL CASE [NAME=VALUE...] [-- CASE ...]
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}": what each case showed.
import { runTest, watch } from "./chromium.mjs";

const [base, ...args] = process.argv.slice(2);
const cases = args.join(" ").split(" -- ").map((text) => {
  const [game, ...set] = text.split(" ").filter(Boolean);
  const [variant, players] = game.split(":");
  return { variant, players, set: set.map((pair) => pair.split("=")) };
});
const problems = [];
const found = [];
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  // a refused table is logged by the browser as the 400 it is: the case reads what the page said
  watch(page, problems, (text) => /status of 400/.test(text));
  for (const { variant, players, set } of cases) {
    await page.goto(`${base}/`);
    await page.waitForSelector("#variant option", { state: "attached" });
    await page.selectOption("#variant", variant);
    await page.fill("#players", players);
    await page.dispatchEvent("#players", "change");
    const shown = { offered: await page.evaluate(() => Object.fromEntries(
      [...document.querySelectorAll("#options .option:not([hidden]) [name]")].map((control) => [control.name, {
        value: control.value,
        placeholder: control.placeholder ?? "",
        inputMode: control.inputMode ?? "",
        doc: document.getElementById(control.getAttribute("aria-describedby")).textContent,
      }]))) };
    for (const [name, value] of set) {
      const control = page.locator(`#options [name="${name}"]`);
      if (await control.evaluate((c) => c.tagName === "SELECT")) await control.selectOption(value);
      else await control.fill(value);
    }
    await page.click("#create button[type=submit]");
    await page.waitForSelector("#created:not([hidden]), #error:not([hidden])", { timeout: 20_000 });
    shown.refused = await page.evaluate(() => (document.querySelector("#error").hidden ? ""
      : document.querySelector("#error").textContent));
    if (!shown.refused) {
      await page.goto(await page.$eval("#links a", (a) => a.href));
      await page.waitForSelector("#board:not([hidden])", { timeout: 20_000 });
      shown.seat = await page.evaluate(() => ({
        options: document.querySelector("#options").textContent,
        target: document.querySelector("#target:not([hidden])")?.textContent ?? "",
      }));
    }
    found.push(shown);
  }
}, () => ({ cases: found }));
