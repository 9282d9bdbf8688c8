// Debian's Chromium under playwright-core, as every browser test here launches it: a
// throw-away profile, headless, no network of its own (no updates, sync or QUIC).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** A persistent context with `options` (viewport, locale, ...); `close()` also deletes its profile. */
export async function launch(options) {
  const profile = mkdtempSync(join(tmpdir(), "canasta-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    ...options,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A browser test as each script here runs one: `play(context)` in a fresh context from
 * `launch(options)`, a throw counted as a problem, the browser closed either way; then
 * "RESULT {json}" of `report()` with the problems, for test_web_table.py, and exit 1 on any
 * problem. `report` reads what `play` found, so a test that failed half-way still shows it.
 */
export async function runTest(options, problems, play, report) {
  const { context, close } = await launch(options);
  try {
    await play(context);
  } catch (err) {
    problems.push(`failed: ${err.message}`);
  } finally {
    await close();
  }
  console.log("RESULT " + JSON.stringify({ ...report(), problems }));
  if (problems.length) process.exit(1);
}

/** A page's errors and its console's errors as problems; `expected(text)` says a console
 * error the test causes on purpose (`() => true`: it checks the errors itself). */
export function watch(page, problems, expected = () => false) {
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && !expected(msg.text())) problems.push(`console: ${msg.text()}`);
  });
}

// Answers the page's deals as hands already over (the stock ran out: HAND_OVER of seat
// -1), so a test reaches a hand's end at once; `onSides` gets the dealt sides, for the
// score the test makes up.
export async function dealHandsOver(context, onSides) {
  await context.route("**/v1/deal", async (route) => {
    const response = await route.fetch();
    const dealt = await response.json();
    onSides(dealt.views[0].sides);
    Object.assign(dealt.views[0], { awaited: -1, legalMoves: [] });
    dealt.events = [...(dealt.events ?? []), { type: "EVENT_TYPE_HAND_OVER", seat: -1 }];
    await route.fulfill({ response, json: dealt });
  });
}

// Answers the page's deals with a position imported (POST /v1/position:import, your view
// alone), so a test reaches an exact situation at a new game; `next(body)` gives the position
// text for each deal (`body`: the deal asked for), or "" to let that deal go as asked.
export async function dealPositions(context, base, next) {
  await context.route("**/v1/deal", async (route) => {
    const position = next(JSON.parse(route.request().postData() ?? "{}"));
    if (!position) {
      await route.continue();
      return;
    }
    const response = await route.fetch({ url: new URL("/v1/position:import", base).href,
      postData: JSON.stringify({ position, viewSeat: 0 }) });
    await route.fulfill({ response });
  });
}

// Every text the status line's live region takes, what a screen reader hears of it, is
// pushed to `window.heard` in each page of `context` (a MutationObserver from the page's
// load on); a test empties it where its listening starts.
export async function hearStatus(context) {
  await context.addInitScript(() => {
    window.heard = [];
    document.addEventListener("DOMContentLoaded", () => {
      const status = document.querySelector("#status");
      new MutationObserver(() => window.heard.push(status.textContent))
        .observe(status, { childList: true, characterData: true, subtree: true });
    });
  });
}

// Presses Enter on `selector`, focused first: a keyboard player's press.
export async function pressEnter(page, selector) {
  await page.focus(selector);
  await page.keyboard.press("Enter");
}

// Opens the table on `variant` for `players` (seed `seed`, greedy bots, no delay) in `lang`,
// presses "New game" and waits for your turn.
export async function newGameAtYourTurn(page, base, { variant, players, seed, lang }) {
  await page.goto(`${base}/play?variant=${variant}&players=${players}&seed=${seed}&bot=greedy&delay=0&lang=${lang}`);
  await page.waitForSelector("body[data-ready=true]");
  await page.click("#new-game");
  await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
}

// Opens classic Canasta for four (seed 1) in `lang` at your turn (newGameAtYourTurn); selects
// `card` and, the status line heard so far forgotten (hearStatus), presses its discard with
// `press(selector)`: a click, or Enter on it.
export async function discardAtYourTurn(page, base, lang, card, press) {
  await newGameAtYourTurn(page, base, { variant: "classic", players: 4, seed: 1, lang });
  await page.click(`#hand .card[data-card='${card}']`);
  await page.evaluate(() => { window.heard = []; });
  await press(`#actions button[data-move='discard ${card}']`);
}

// The headings of the sides' melds on `page`, by team: their words, the red threes laid
// beside them left out.
export const sideHeadings = (page) => page.$$eval(".side-melds", (sides) => Object.fromEntries(sides.map((side) => [
  side.dataset.team, [...side.querySelector("h3").childNodes]
    .filter((n) => !n.classList?.contains("red-threes")).map((n) => n.textContent).join("").trim()])));

// A call a test holds while it reads the page: a route `await`s `wait()`, which marks the
// gate `reached` and returns once the test calls `release()`.
export function gate() {
  let reach;
  let release;
  const reached = new Promise((done) => { reach = done; });
  const released = new Promise((go) => { release = go; });
  return { reached, release, wait: () => { reach(); return released; } };
}

// axe-core (package.json) in `page` as it is now, once per page load: window.axe, for an
// audit (axe.run). Evaluated, not a <script>: the page's Content-Security-Policy allows no
// inline script.
export async function injectAxe(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE);
}

// window.spokenName(node) in each page of `context`: a node's words as a screen reader says
// them, by the markup this page names things with (what is aria-hidden left out, an
// aria-label in place of the content it labels: a card's image); of a node hidden from sight
// too (a closed "All moves"), as it is said once shown.
export async function speakNames(context) {
  await context.addInitScript(() => {
    window.spokenName = (n) => {
      if (n.nodeType === Node.TEXT_NODE) return n.data;
      if (n.nodeType !== Node.ELEMENT_NODE || n.getAttribute("aria-hidden") === "true") return "";
      return n.getAttribute("aria-label") ?? [...n.childNodes].map(window.spokenName).join("");
    };
  });
}
