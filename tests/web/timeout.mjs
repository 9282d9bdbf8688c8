// A service that takes the page's call and never answers it. The page is opened with
// `?timeout=3000` (each call's deadline, 10 s unless set) and each CASE ("kind:lang") holds
// the service's answers (every /v1/ call) at one moment:
//   bots  after your discard, while the bots play: the error is shown, the status line says
//         the game has stopped, and a "Try again" button takes the focus; the service answers
//         again, Enter on that button: the bots play on to your turn, the error gone.
//   move  your draw: the error is shown and the draw is offered again; the service answers
//         again, the draw pressed again is played, the error gone.
//
//   node tests/web/timeout.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": what each case read, any problems.
import { pressEnter, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let held = null; // the routes held while the service hangs (null: it answers)
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await context.route("**/v1/**", (route) => (held ? held.push(route) : route.continue()));
  // the service answers again: the held calls go on to it (the page has given them up)
  const answer = async () => {
    const routes = held;
    held = null;
    await Promise.all(routes.map((route) => route.continue().catch(() => {})));
    return routes.length;
  };
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  const read = () => page.evaluate(() => {
    const error = document.querySelector("#error");
    const retry = document.querySelector("#retry");
    const draw = document.querySelector('#actions button[data-move="draw"]');
    return {
      state: document.querySelector("#status").dataset.state,
      status: document.querySelector("#status").textContent,
      error: error.hidden ? "" : error.dataset.reason ?? "",
      sentence: error.hidden ? "" : error.querySelector("span")?.textContent ?? "",
      retry: retry ? { text: retry.textContent, disabled: retry.disabled, focused: document.activeElement === retry } : null,
      draw: draw ? !draw.disabled : null,
      logged: Number(document.querySelector("#log").dataset.count),
    };
  });
  const press = (selector) => pressEnter(page, selector);
  for (const name of cases) {
    const [kind, lang] = name.split(":");
    const seen = {};
    await page.goto(`${base}/play?variant=classic&players=4&seed=5&bot=greedy&delay=300&timeout=3000&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await press("#new-game");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    if (kind === "move") {
      held = [];
      await press('#actions button[data-move="draw"]');
      await page.waitForSelector("#error:not([hidden])", { timeout: 20_000 });
      seen.hung = await read();
      seen.held = await answer();
      await press('#actions button[data-move="draw"]');
      await page.waitForSelector('#actions button[data-move="draw"]', { state: "detached", timeout: 20_000 })
        .catch(() => {});
      seen.back = await read();
      found[name] = seen;
      continue;
    }
    await press('#actions button[data-move="draw"]');
    await page.waitForSelector("#actions button[data-move=draw]", { state: "detached" });
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await page.focus("#hand .card[tabindex='0']");
    await page.keyboard.press("Space");
    await press('#actions button[data-move^="discard "]');
    await page.waitForSelector("#status[data-state=bots]", { timeout: 10_000 });
    held = [];
    await page.waitForSelector("#error:not([hidden])", { timeout: 20_000 });
    await page.waitForTimeout(300);
    seen.hung = await read();
    seen.held = await answer();
    await page.keyboard.press("Enter"); // on "Try again", if it has the focus
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 }).catch(() => {});
    seen.back = await read();
    found[name] = seen;
  }
}, () => ({ cases: found }));
