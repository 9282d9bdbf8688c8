// Plays a whole hand of the reference web table (/play) in headless Chromium by clicking,
// checks a refused move is shown plainly, and saves a screenshot of the scored hand.
//
//   node tests/web/play_hand.mjs BASE_URL SCREENSHOT.png [variant] [players] [seed]
//
// Run by tests/web/test_web_table.py against a server on a free port. Prints one line per
// step and "RESULT {json}" at the end; exits non-zero on any failure.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base, shot, variant = "classic", players = "4", seed = "7"] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const MAX_TURNS = 400;

const profile = mkdtempSync(join(tmpdir(), "canasta-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  viewport: { width: 1280, height: 1000 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const problems = [];
try {
  const page = context.pages()[0] ?? await context.newPage();
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    // the browser logs the deliberately refused move's 400 itself; anything else is a problem
    if (msg.type() === "error" && !/status of 400/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });

  const url = `${base}/play?variant=${variant}&players=${players}&seed=${seed}&bot=greedy&delay=0`;
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  await page.click("#new-game");

  const state = () => page.$eval("#status", (el) => el.dataset.state);
  const settle = () => page.waitForFunction(
    () => ["your-turn", "hand-over", "game-over"].includes(document.querySelector("#status").dataset.state),
    null, { timeout: 60_000 });

  let turns = 0;
  let refusedShown = "";
  await settle();
  while ((await state()) === "your-turn") {
    if (++turns > MAX_TURNS) throw new Error(`no end of the hand after ${MAX_TURNS} turns`);
    const moves = await page.$$eval("#moves button.move", (bs) => bs.map((b) => b.dataset.move));
    if (!refusedShown && moves.some((m) => m.startsWith("discard"))) {
      // a move the rules refuse, typed: the page must say why, plainly, and carry on
      await page.fill("#move-text", "meld 2C 2D 2H");
      await page.click("#play-text");
      await page.waitForSelector("#error:not([hidden])", { timeout: 10_000 });
      refusedShown = await page.$eval("#error", (el) => el.textContent);
      console.log(`refused as expected: ${refusedShown}`);
      if (!/^[A-Z_]+: ./.test(refusedShown)) throw new Error(`error not shown plainly: ${refusedShown}`);
    }
    const pick = moves.find((m) => m === "out" || m.startsWith("out ") || m === "end")
      ?? moves.find((m) => m === "yes")
      ?? moves.find((m) => m === "draw")
      ?? moves.find((m) => m === "decline")
      ?? moves.find((m) => m.startsWith("discard"))
      ?? moves.find((m) => m !== "undo" && m !== "ask")
      ?? moves[0];
    if (!pick) throw new Error("your turn without moves");
    const before = await page.$eval("#log", (el) => Number(el.dataset.count ?? 0));
    await page.click(`#moves button.move[data-move="${pick}"]`);
    await page.waitForFunction((n) => {
      const st = document.querySelector("#status").dataset.state;
      const grew = Number(document.querySelector("#log").dataset.count ?? 0) > n;
      const err = !document.querySelector("#error").hidden;
      return st !== "bots" && (grew || err);
    }, before, { timeout: 60_000 });
    const err = await page.$eval("#error", (el) => (el.hidden ? "" : el.textContent));
    if (err) throw new Error(`listed move ${pick} refused: ${err}`);
    console.log(`turn ${turns}: ${pick}`);
    await settle();
  }

  const final = await state();
  if (!["hand-over", "game-over"].includes(final)) throw new Error(`ended in state ${final}`);
  await page.waitForSelector("#result-panel:not([hidden]) #score-table");
  const rows = await page.$$eval("#score-table tr", (trs) => trs.map((tr) => tr.innerText));
  const hand = await page.$$eval("#hand .card", (cs) => cs.length);
  const sides = await page.$$eval("#scores tbody tr", (trs) => trs.length);
  await page.screenshot({ path: shot, fullPage: true });
  if (!refusedShown) problems.push("no refused move was tried");
  console.log("RESULT " + JSON.stringify({ state: final, turns, rows, hand, sides, refusedShown, problems }));
  if (problems.length) throw new Error(problems.join("; "));
} catch (err) {
  const page = context.pages()[0];
  if (page) {
    const status = await page.$eval("#status", (el) => `${el.dataset.state}: ${el.textContent}`).catch(() => "?");
    const error = await page.$eval("#error", (el) => el.textContent).catch(() => "?");
    const log = await page.$$eval("#log li", (lis) => lis.slice(0, 8).map((li) => li.textContent)).catch(() => []);
    console.log(`FAILED at status ${status}; error: ${error}; last log: ${log.join(" | ")}`);
    await page.screenshot({ path: shot.replace(/\.png$/, "-failed.png"), fullPage: true }).catch(() => {});
  }
  throw err;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
