// The reference host's seat page (examples/host/static/seat.js) when its record cannot be
// downloaded: "Download my record" answered the host's refusal (502 UNAVAILABLE, the rules
// service away, with the host's MESSAGE for it), then with no answer at all (the connection
// fails); what the page said.
//   refused   the error line after the refusal
//   failed    the error line after the failed connection
//
//   node tests/web/host_record.mjs LINK MESSAGE   (a join link)
//
// Run by tests/web/test_host_pages.py. Prints "RESULT {json}".
import { runTest, watch } from "./chromium.mjs";

const [link, message] = process.argv.slice(2);
const problems = [];
const said = {};
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  const page = context.pages()[0] ?? await context.newPage();
  // the browser's own console line for each answer it could not load, not the page's
  let logged = 0;
  watch(page, problems, (text) => /status of 502|net::ERR_FAILED/.test(text) && logged++ < 2);
  await page.goto(link);
  await page.waitForSelector("#board:not([hidden])", { timeout: 20_000 });
  const answers = {
    refused: (route) => route.fulfill({ status: 502, json: { reason: "UNAVAILABLE", message } }),
    failed: (route) => route.abort(),
  };
  for (const [name, answer] of Object.entries(answers)) {
    await page.route("**/api/tables/*/record*", answer);
    await page.evaluate(() => { document.querySelector("#error").textContent = ""; });
    await page.click("#record");
    await page.waitForFunction(() => document.querySelector("#error").textContent, null, { timeout: 5_000 })
      .catch(() => {});
    said[name] = await page.textContent("#error");
    await page.unroute("**/api/tables/*/record*");
  }
}, () => said);
