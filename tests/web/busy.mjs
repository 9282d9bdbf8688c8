// The web table against a busy server: the first REFUSALS suggest-move calls (the page's
// hint, asked at your first turn) are refused as the service refuses load (429 TOO_MANY_CALLS with RetryInfo
// and Retry-After: 1); every later one reaches the server. The page must send the same
// call again after the delay and play on, or, refused more often than it retries, show
// the refusal. With MEANWHILE=draw you draw (its button) while the page waits to
// ask again: the advice that then comes is for a position gone, and must not be shown.
//
//   node tests/web/busy.mjs BASE_URL REFUSALS [MEANWHILE]
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each suggest-move request
// (when, its body, refused or not), the hint shown, the cards it selected, the page's
// error and the moves in its log.
import { newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, refusalsText, meanwhile = ""] = process.argv.slice(2);
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
let answered; // resolved once the server's answer to a suggest-move reached the page
const delivered = new Promise((resolve) => { answered = resolve; });
const problems = [];
let refusedLogged = 0;
let result = { suggests, hint: "", selected: 0, error: "", logged: 0 };
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/suggest-move", async (route) => {
    const refused = suggests.length < REFUSALS;
    suggests.push({ at: Date.now(), body: route.request().postData() ?? "", refused });
    if (!refused) {
      await route.fulfill({ response: await route.fetch() });
      answered();
      return;
    }
    await route.fulfill({
      status: 429, contentType: "application/json", body: BUSY, headers: { "retry-after": "1" },
    });
  });
  const page = context.pages()[0] ?? await context.newPage();
  // the browser logs each refused answer once
  watch(page, problems, (text) => /status of 429/.test(text) && refusedLogged++ < REFUSALS);
  await newGameAtYourTurn(page, base, { variant: "classic", players: 4, seed: 3, lang: "en" });
  const logged = () => page.$eval("#log", (el) => Number(el.dataset.count ?? 0));
  await page.click("#hint");
  if (meanwhile) {
    while (!suggests.length) await new Promise((done) => setTimeout(done, 20)); // refused
    const before = await logged();
    await page.click(`#actions button.action[data-move="${meanwhile}"]`);
    await page.waitForFunction((n) => Number(document.querySelector("#log").dataset.count ?? 0) > n,
      before, { timeout: 10_000 });
    await delivered; // the retried hint's answer reached the page
    await page.waitForTimeout(1000); // time enough for the page to use it, were it to
  } else {
    await page.waitForSelector("#hint-text:not([hidden]), #error:not([hidden])", { timeout: 30_000 });
  }
  result = {
    suggests,
    hint: await page.$eval("#hint-text", (el) => (el.hidden ? "" : el.dataset.move)),
    selected: await page.$$eval("#hand .card[aria-pressed=true]", (cs) => cs.length),
    error: await page.$eval("#error", (el) => (el.hidden ? "" : el.dataset.reason ?? el.textContent)),
    logged: await logged(),
  };
}, () => result);
