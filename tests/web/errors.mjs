// The page's own errors, in the page's language: each CASE ("kind:lang") deals a classic
// game and breaks one answer the page gets, then reads the error it shows.
//   view     the deal's answer carries a second seat's view (the page refuses to show it)
//   502      the hint is answered 502 by something before the service (an HTML body)
//   offline  the hint's request never reaches the server
//   newgame  a game is on; "New game" for May I? is asked with six players (the request is
//            changed: the page's field keeps to May I?'s three to five) and refused by the
//            service (BAD_PLAYER_COUNT): the game before is gone, and its table must not
//            stay on the page with moves that no longer do anything
//   refused  a move typed at your draw that the rules refuse (WRONG_PHASE): the service's
//            own words
// The sentence shown (the error's text but its reason code) must be the page's language
// alone: no English in the Russian page (no "Error:" of a JavaScript exception, no
// browser's "Failed to fetch", no "Bad Gateway" status line).
//
// A case "kind:lang>other" then presses the language switch for `other` with the error on
// the page, and reads the error again once the page speaks `other`: it should still be
// there, in `other`'s words, with the same reason; and the calls the page sent meanwhile
// (`sent`, "VERB /path"), none but the games' list.
//
//   node tests/web/errors.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's error (its
// sentence and its reason), any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const shown = {};
let breaking = "";
let sent = null; // the calls sent since the language was switched, while they are listened to
await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/deal", async (route) => {
    const asked = JSON.parse(route.request().postData() ?? "{}");
    if (breaking === "newgame" && asked.variant === "may_i") {
      await route.continue({ postData: JSON.stringify({ ...asked, players: 6 }) });
      return;
    }
    const response = await route.fetch();
    const dealt = await response.json();
    if (breaking === "view") dealt.views.push({ ...dealt.views[0], seat: 1 });
    await route.fulfill({ response, json: dealt });
  });
  await context.route("**/v1/suggest-move", async (route) => {
    if (breaking === "502") {
      await route.fulfill({ status: 502, contentType: "text/html", body: "<html><body>Bad Gateway</body></html>" });
    } else if (breaking === "offline") {
      await route.abort("internetdisconnected");
    } else {
      await route.continue();
    }
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems, () => true);
  page.on("request", (req) => {
    if (sent && new URL(req.url()).pathname.startsWith("/v1/")) sent.push(`${req.method()} ${new URL(req.url()).pathname}`);
  });
  const read = () => page.$eval("#error", (el) => ({
    sentence: [...el.childNodes].filter((n) => n.nodeName !== "CODE").map((n) => n.textContent).join("").trim(),
    reason: el.dataset.reason ?? "",
    shown: !el.hidden,
    // the page under the error: the table shown, the status line's state
    board: !document.querySelector("#board").hidden,
    state: document.querySelector("#status").dataset.state,
  }));
  for (const name of cases) {
    const [kind, langs] = name.split(":");
    const [lang, then] = langs.split(">");
    breaking = kind;
    await page.goto(`${base}/play?variant=classic&players=4&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    if (kind !== "view") await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
    if (kind === "newgame") {
      await page.selectOption("#variant", "may_i");
      await page.click("#new-game");
    } else if (kind === "refused") {
      await page.click("#moves-panel summary");
      await page.fill("#move-text", "discard " + await page.$eval("#hand .card", (c) => c.dataset.card));
      await page.click("#play-text");
    } else if (kind !== "view") {
      await page.click("#hint");
    }
    await page.waitForSelector("#error:not([hidden])", { timeout: 30_000 });
    shown[name] = await read();
    if (then) {
      const before = shown[name].sentence;
      sent = [];
      await page.click(`button.lang[data-lang="${then}"]`);
      // the page's words change at once, the error's with them (worded again from what the
      // page holds: no call is asked again for them)
      await page.waitForFunction(([to, old]) => document.documentElement.lang === to
        && document.querySelector("#error").textContent.trim() !== "" && !document.querySelector("#error").textContent.includes(old),
      [then, before], { timeout: 5_000 }).catch(() => {});
      await page.waitForTimeout(300); // (any call the switch sent is on its way)
      shown[name] = { ...await read(), before, lang: await page.$eval("html", (el) => el.lang), sent };
      sent = null;
    }
  }
}, () => ({ shown }));
