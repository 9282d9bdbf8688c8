// Opens Swagger UI (/docs) in headless Chromium with every request that does not go to the
// server under test blocked, as if the machine were offline, and checks that it renders
// the API: its title, every operation of the OpenAPI document, and an operation opened.
//
//   node tests/web/docs_offline.mjs BASE_URL SCREENSHOT.png
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}" (the operations shown, the
// requests made and blocked, page errors and console errors) and exits non-zero on failure.
import { runTest, watch } from "./chromium.mjs";

const [base, shot] = process.argv.slice(2);
const origin = new URL(base).origin;

const requested = [];
const blocked = [];
const problems = [];
let result = { title: "", operations: [], requested, blocked };
await runTest({ viewport: { width: 1280, height: 1000 } }, problems, async (context) => {
  // the network, unplugged: only the server under test answers
  await context.route(() => true, async (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) {
      requested.push(new URL(url).pathname);
      await route.continue();
    } else {
      blocked.push(url);
      await route.abort("internetdisconnected");
    }
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  await page.goto(`${base}/docs`);
  await page.waitForSelector(".opblock .opblock-summary-path", { timeout: 30_000 });
  const title = await page.$eval(".information-container .title", (el) => el.textContent);
  const operations = await page.$$eval(".opblock", (els) => els.map((el) => {
    const method = el.querySelector(".opblock-summary-method")?.textContent ?? "";
    const path = el.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? "";
    return `${method} ${path}`;
  }));
  // open one operation: its parameters and "Try it out" appear
  await page.click(".opblock-get .opblock-summary");
  await page.waitForSelector(".opblock.is-open .try-out__btn", { timeout: 10_000 });
  await page.screenshot({ path: shot, fullPage: false });
  result = { title, operations, requested, blocked };
  if (blocked.length) problems.push(`requests left the server: ${blocked.join(" ")}`);
}, () => result);
