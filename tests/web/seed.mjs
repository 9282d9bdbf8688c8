// The seed a game is dealt with. Each CASE plays classic Canasta for four in a tab of its own:
//   random   no seed typed, the browser's crypto.getRandomValues stubbed to fill its array
//            with the bytes 10 32 54 76 98 BA DC FE (little-endian: 0xFEDCBA9876543210)
//   typed    the seed field holds 18446744073709551615 (2^64 - 1)
// At your first turn the hint is asked, then the page is reloaded (the kept game resumed)
// and the hint asked again. Every seed the page sent (the deal, the bots' and the hints'
// SuggestMove) is recorded as the request's JSON has it, with the deal's answer.
//   refused:TEXT:LANG   TEXT is typed in the seed field of the page in LANG and "New game"
//            clicked: the seeds sent (none, if the page refuses TEXT), the field (its
//            value, validity and message, whether it has the focus) and the status line;
//            then the language switched to the other one, the field's message again.
//
//   node tests/web/seed.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's seeds, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  for (const kind of cases) {
    const page = await context.newPage(); // a tab of its own: its own sessionStorage
    watch(page, problems);
    if (kind === "random") {
      await page.addInitScript(() => {
        const bytes = [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe];
        crypto.getRandomValues = (array) => {
          new Uint8Array(array.buffer, array.byteOffset, array.byteLength).forEach((_, i, all) => {
            all[i] = bytes[i % bytes.length];
          });
          return array;
        };
      });
    }
    // what each call sent as its seed: [path, typeof, value]
    const sent = [];
    let dealt = 0;
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path !== "/v1/deal" && path !== "/v1/suggest-move") return;
      const seed = JSON.parse(r.postData() ?? "{}").seed;
      sent.push([path, typeof seed, String(seed)]);
    });
    page.on("response", (r) => {
      if (new URL(r.url()).pathname === "/v1/deal") dealt = r.status();
    });
    const yourTurn = () => page.waitForFunction(() => document.querySelector("#status").dataset.state === "your-turn"
      && !document.querySelector("#hint").disabled, null, { timeout: 30_000 });
    const hinted = async () => {
      await page.click("#hint");
      await page.waitForSelector("#hint-text:not([hidden])", { timeout: 30_000 });
    };
    if (kind.startsWith("refused:")) {
      const [, text, lang] = kind.split(":");
      const field = () => page.$eval("#seed", (f) => ({ value: f.value, valid: f.validity.valid,
        message: f.validationMessage, focused: document.activeElement === f }));
      await page.goto(`${base}/play?variant=classic&players=4&bot=greedy&delay=0&lang=${lang}`);
      await page.waitForSelector("body[data-ready=true]");
      await page.locator("#seed").pressSequentially(text);
      await page.click("#new-game");
      await page.waitForTimeout(500); // (a deal, if one was sent, would be asked by now)
      const seen = { sent, field: await field(), state: await page.$eval("#status", (el) => el.dataset.state) };
      await page.click(`button.lang:not([data-lang="${lang}"])`);
      found[kind] = { ...seen, switched: (await field()).message };
      await page.close();
      continue;
    }
    await page.goto(`${base}/play?variant=classic&players=4&bot=greedy&delay=0&lang=en`);
    await page.waitForSelector("body[data-ready=true]");
    if (kind === "typed") await page.fill("#seed", "18446744073709551615");
    await page.click("#new-game");
    await yourTurn();
    await hinted();
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    await yourTurn();
    await hinted();
    found[kind] = { sent, dealt, error: await page.$eval("#error", (el) => el.dataset.reason ?? "") };
    await page.close();
  }
}, () => ({ cases: found }));
