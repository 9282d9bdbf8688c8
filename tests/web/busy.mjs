// The web table against a busy server: the first REFUSALS suggest-move calls (the page's
// hint, asked at your first turn) are refused as the service refuses load (429 TOO_MANY_CALLS with RetryInfo
// and Retry-After: 1); every later one reaches the server. The page must send the same
// call again after the delay and play on, or, refused more often than it retries, show
// the refusal.
//
//   node tests/web/busy.mjs BASE_URL REFUSALS
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each suggest-move request
// (when, its body, refused or not), the hint shown and the page's error.
import { launch } from "./chromium.mjs";

const [base, refusalsText] = process.argv.slice(2);
const REFUSALS = Number(refusalsText);
// the service's refusal of load (docs/api.md, Errors), in the page's language
const BUSY = JSON.stringify({
  error: {
    code: 429, status: "RESOURCE_EXHAUSTED", message: "the server is busy; retry later",
    details: [
      { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TOO_MANY_CALLS",
        domain: "canasta.v1", metadata: { limit: "1" } },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" },
    ],
  },
});

const suggests = [];
const problems = [];
let refusedLogged = 0;
const { context, close } = await launch({ viewport: { width: 1280, height: 900 } });
let result = {};
try {
  await context.route("**/v1/suggest-move", async (route) => {
    const refused = suggests.length < REFUSALS;
    suggests.push({ at: Date.now(), body: route.request().postData() ?? "", refused });
    if (!refused) return route.continue();
    await route.fulfill({
      status: 429, contentType: "application/json", body: BUSY, headers: { "retry-after": "1" },
    });
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // the browser logs each refused answer once
    if (/status of 429/.test(msg.text()) && refusedLogged++ < REFUSALS) return;
    problems.push(`console: ${msg.text()}`);
  });
  await page.goto(`${base}/play?variant=classic&players=4&seed=3&bot=greedy&delay=0&lang=en`);
  await page.waitForSelector("body[data-ready=true]");
  await page.click("#new-game");
  await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
  await page.click("#hint");
  await page.waitForSelector("#hint-text:not([hidden]), #error:not([hidden])", { timeout: 30_000 });
  result = {
    suggests,
    hint: await page.$eval("#hint-text", (el) => (el.hidden ? "" : el.dataset.move)),
    error: await page.$eval("#error", (el) => (el.hidden ? "" : el.dataset.reason ?? el.textContent)),
    problems,
  };
} catch (err) {
  problems.push(`failed: ${err.message}`);
  result = { suggests, hint: "", error: "", problems };
} finally {
  await close();
}
console.log("RESULT " + JSON.stringify(result));
if (problems.length) process.exit(1);
