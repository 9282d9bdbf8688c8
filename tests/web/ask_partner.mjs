// "May I go out?" in classic Canasta for four (partners), both ways, as a person plays it.
// Each CASE ("lang:width") plays two games:
//   asking     greedy bots (seed 5): at your first draw you press "Ask partner: may I go out?"
//              (on the phone from the keyboard), the page says your partner is answering,
//              then the answer; what the page shows at each step is read
//   answering  random bots (seed 4), which ask too: you draw and discard until your partner
//              asks you; the question, the answer buttons and the rules are read, and you
//              answer (yes on the desktop, no on the phone); the move sent and the log are read
// Screenshots of both questions go to OUT_DIR (ask-LANG-WIDTH-{asking,answering}.png).
//
//   node tests/web/ask_partner.mjs BASE_URL OUT_DIR CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's findings, any problems.
import { gate, runTest, speakNames, watch } from "./chromium.mjs";

const [base, outDir, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
const sent = []; // your moves as sent: the move's text
const TURN = "#status[data-state=your-turn], #status[data-state=hand-over], #status[data-state=game-over]";
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await speakNames(context);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  // while `held` is set, your next move waits at its gate (gate()) on its way to the server,
  // so the page can be read in between (else the read races the answer)
  let held = null;
  await context.route("**/v1/apply-move", async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}");
    if (body.seat === undefined && held) await held.wait();
    await route.continue();
  });
  page.on("request", (req) => {
    if (!req.url().endsWith("/v1/apply-move")) return;
    const body = JSON.parse(req.postData() ?? "{}");
    if (body.seat === undefined) sent.push(body.move?.text ?? "");
  });
  const read = () => page.evaluate(() => ({
    status: document.querySelector("#status").textContent,
    state: document.querySelector("#status").dataset.state,
    actions: [...document.querySelectorAll("#actions button")].map((b) => ({
      move: b.dataset.move, text: b.textContent, label: window.spokenName(b), disabled: b.disabled })),
    rules: [...document.querySelectorAll("#rules li")].map((li) => li.textContent),
    log: [...document.querySelectorAll("#log li")].map((li) => li.textContent),
    error: document.querySelector("#error").hidden ? "" : document.querySelector("#error").textContent,
  }));
  const open = (lang, bot, seed, delay) => page.goto(
    `${base}/play?variant=classic&players=4&seed=${seed}&bot=${bot}&delay=${delay}&lang=${lang}`);

  for (const name of cases) {
    const [lang, width] = name.split(":");
    const phone = Number(width) < 600;
    const seen = {};
    await page.setViewportSize({ width: Number(width), height: 900 });

    // asking: your question, your partner thinking, the answer
    await open(lang, "greedy", 5, 800);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.waitForSelector(TURN, { timeout: 30_000 });
    seen.draw = await read();
    const ask = page.locator('#actions button[data-move="ask"]');
    const { release } = held = gate();
    if (phone) {
      await ask.focus();
      await page.keyboard.press("Enter");
    } else {
      await ask.click();
    }
    await page.waitForSelector("#status[data-state=sending]", { timeout: 10_000 });
    seen.sending = await read();
    held = null;
    release();
    await page.waitForSelector("#status[data-state=bots]", { timeout: 10_000 });
    seen.waiting = await read();
    await page.screenshot({ path: `${outDir}/ask-${lang}-${width}-asking.png`, fullPage: true });
    await page.waitForSelector(TURN, { timeout: 30_000 });
    seen.answered = await read();

    // answering: your partner asks you
    await open(lang, "random", 4, 0);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    for (let turn = 0; turn < 40; turn++) {
      await page.waitForSelector(TURN, { timeout: 30_000 });
      const now = await read();
      if (now.state !== "your-turn") break;
      if (now.actions.some((a) => a.move === "yes")) {
        seen.question = now;
        break;
      }
      const draw = now.actions.find((a) => a.move === "draw");
      if (draw) {
        await page.click('#actions button[data-move="draw"]');
      } else {
        // discard your first card: select it, press the discard it makes
        await page.click("#hand .card >> nth=0");
        await page.click('#actions button[data-move^="discard "]');
      }
      await page.waitForTimeout(50);
    }
    if (!seen.question) {
      problems.push(`${name}: your partner never asked`);
    } else {
      await page.screenshot({ path: `${outDir}/ask-${lang}-${width}-answering.png`, fullPage: true });
      const answer = phone ? "no" : "yes";
      const before = sent.length;
      const logged = await page.$eval("#log", (el) => el.dataset.count);
      await page.click(`#actions button[data-move="${answer}"]`);
      await page.waitForFunction((n) => document.querySelector("#log").dataset.count !== n, logged,
        { timeout: 10_000 });
      await page.waitForSelector(TURN, { timeout: 30_000 });
      seen.after = { ...await read(), sent: sent.slice(before) };
    }
    found[name] = seen;
  }
}, () => ({ cases: found }));
