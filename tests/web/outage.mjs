// The service goes away, then comes back. Each CASE ("kind:lang") is one of:
//   bots  deals classic Canasta for four (greedy bots, seed 5), plays your first turn from
//         the keyboard (draw, then the first card's discard), and cuts the network to the
//         service (every /v1/ call refused) once the bots are moving: the error is shown, the
//         status line and the rules panel say the game has stopped (not that a bot is
//         playing), and a "Try again" button takes the focus. The service comes back, Enter
//         on that button: the bots play on to your turn, the error gone.
//   open  the service is away when the page opens (its list of games fails), and back when
//         "New game" is pressed for classic Canasta for two: the games' menu is filled and
//         the rules panel's draw is the service's (two cards for two players).
//
//   node tests/web/outage.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": what each case read, any problems.
import { pressEnter, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let down = false;
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await context.route("**/v1/**", (route) => (down ? route.abort("connectionrefused") : route.continue()));
  const page = context.pages()[0] ?? await context.newPage();
  // (the refused connections are logged by the browser; the page's error is read here)
  watch(page, problems, (text) => text.includes("ERR_CONNECTION_REFUSED"));
  const read = () => page.evaluate(() => {
    const retry = document.querySelector("#retry");
    return {
      status: document.querySelector("#status").textContent,
      state: document.querySelector("#status").dataset.state,
      error: document.querySelector("#error").hidden ? "" : document.querySelector("#error").dataset.reason ?? "",
      retry: retry ? { text: retry.textContent, disabled: retry.disabled, focused: document.activeElement === retry } : null,
      logged: Number(document.querySelector("#log").dataset.count),
      rules: [...document.querySelectorAll("#rules li")].map((li) => li.textContent),
    };
  });
  const press = (selector) => pressEnter(page, selector);
  for (const name of cases) {
    const [kind, lang] = name.split(":");
    const seen = {};
    if (kind === "open") {
      down = true;
      await page.goto(`${base}/play?variant=classic&players=2&seed=5&bot=greedy&delay=0&lang=${lang}`);
      await page.waitForSelector("body[data-ready=true]");
      seen.down = await read();
      down = false;
      await press("#new-game");
      await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
      seen.back = { ...await read(), games: await page.$$eval("#variant option", (os) => os.length),
        draw: await page.$eval("#rules li", (li) => li.textContent) };
      found[name] = seen;
      continue;
    }
    down = false;
    await page.goto(`${base}/play?variant=classic&players=4&seed=5&bot=greedy&delay=300&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await press("#new-game");
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await press('#actions button[data-move="draw"]');
    await page.waitForSelector("#actions button[data-move=draw]", { state: "detached" });
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    await page.focus("#hand .card[tabindex='0']");
    await page.keyboard.press("Space");
    await press('#actions button[data-move^="discard "]');
    await page.waitForSelector("#status[data-state=bots]", { timeout: 10_000 });
    down = true;
    await page.waitForSelector("#error:not([hidden])", { timeout: 20_000 });
    await page.waitForTimeout(300);
    seen.down = await read();
    down = false;
    await page.keyboard.press("Enter"); // on "Try again", if it has the focus
    await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 }).catch(() => {});
    seen.back = await read();
    found[name] = seen;
  }
}, () => ({ cases: found }));
