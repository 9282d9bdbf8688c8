// Opens Swagger UI (/docs) in headless Chromium with every request that does not go to the
// server under test blocked, as if the machine were offline, and checks that it renders
// the API: its title, every operation of the OpenAPI document, and an operation opened.
//
//   node tests/web/docs_offline.mjs BASE_URL SCREENSHOT.png
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}" (the operations shown, the
// requests made and blocked, page errors and console errors) and exits non-zero on failure.
import { launch } from "./chromium.mjs";

const [base, shot] = process.argv.slice(2);
const origin = new URL(base).origin;

const requested = [];
const blocked = [];
const problems = [];
const { context, close } = await launch({ viewport: { width: 1280, height: 1000 } });
let result = {};
try {
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
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
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
  result = { title, operations, requested, blocked, problems };
} catch (err) {
  problems.push(`failed: ${err.message}`);
  result = { title: "", operations: [], requested, blocked, problems };
} finally {
  await close();
}
console.log("RESULT " + JSON.stringify(result));
if (problems.length || blocked.length) process.exit(1);
