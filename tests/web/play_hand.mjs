// Plays a whole hand of the reference web table (/play) in headless Chromium by clicking,
// checks a refused move is shown plainly, and saves a screenshot of the scored hand.
//
// Credentials: every request the page sends goes through a route that records it with
// its answer. The calls made for you (your moves, the hint, the score) must present
// seat 0's token and the bots' moves and the next deal the host token (both from the
// Deal answer), and no answer may carry another seat's view. At each of your turns the
// page is compared with the host's full view of the same snapshot (fetched here with the
// host token): it shows seat 0's hand and moves, the public table, and no other card.
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

// What the page sent and got, in order: { path, auth, body, status, answer }.
const calls = [];
const lastSnapshot = () => calls.findLast((c) => c.status === 200 && c.answer?.snapshot)?.answer.snapshot;
const tokens = () => {
  const dealt = calls.find((c) => c.path === "/v1/deal" && c.status === 200)?.answer ?? {};
  return { host: dealt.hostToken ?? "", seat0: (dealt.seatTokens ?? [])[0] ?? "" };
};

// Counts of each card code.
function tally(codes) {
  const out = new Map();
  for (const c of codes) out.set(c, (out.get(c) ?? 0) + 1);
  return out;
}
const sameTally = (a, b) => a.size === b.size && [...a].every(([k, n]) => b.get(k) === n);

// The page now against the host's full view of its latest snapshot: seat 0's hand and
// moves, the public table, and no other card. Returns the problems found.
async function compareWithHost(page) {
  const { host } = tokens();
  const resp = await fetch(`${base}/v1/view`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${host}` },
    body: JSON.stringify({ snapshot: lastSnapshot() }),
  });
  const { views = [] } = await resp.json();
  if (views.length < 2) return [`the host's view has ${views.length} seat(s)`];
  const mine = views[0];
  const shown = await page.evaluate(() => ({
    hand: [...document.querySelectorAll("#hand .card")].map((c) => c.dataset.card),
    cards: [...document.querySelectorAll("[data-card]")].map((c) => c.dataset.card),
    moves: [...document.querySelectorAll("#moves button.move")].map((b) => b.dataset.move),
  }));
  const problems = [];
  if (JSON.stringify(shown.hand) !== JSON.stringify(mine.hand ?? [])) {
    problems.push(`hand shown ${shown.hand} is not seat 0's ${mine.hand}`);
  }
  for (const other of views.slice(1)) {
    if ((other.hand ?? []).length && JSON.stringify(shown.hand) === JSON.stringify(other.hand)) {
      problems.push(`the hand shown is seat ${other.seat}'s`);
    }
  }
  if (JSON.stringify(shown.moves) !== JSON.stringify(mine.legalMoves ?? [])) {
    problems.push(`moves shown ${shown.moves} are not seat 0's ${mine.legalMoves}`);
  }
  // every card on the page: seat 0's hand, the melds, the red threes and the pile top
  const expected = [...(mine.hand ?? []), ...(mine.pileTop ? [mine.pileTop] : [])];
  for (const side of mine.sides ?? []) {
    for (const m of side.melds ?? []) expected.push(...m.cards);
    expected.push(...(side.redThrees ?? []));
  }
  if (!sameTally(tally(shown.cards), tally(expected))) {
    problems.push(`cards on the page ${shown.cards.slice().sort()} are not seat 0's hand and the table ${expected.slice().sort()}`);
  }
  return problems;
}

// Which credential each recorded call presented, against what it should: the problems,
// and how many calls of each kind ("apply-move you", "suggest-move bot", ...).
function checkCredentials() {
  const { host, seat0 } = tokens();
  const problems = [];
  const kinds = {};
  if (!host || !seat0 || host === seat0) problems.push("the deal answered no host and seat tokens");
  const who = (auth) => (auth === `Bearer ${seat0}` ? "seat0" : auth === `Bearer ${host}` ? "host"
    : auth ? "other" : "none");
  for (const c of calls) {
    const name = c.path.replace(/^\/v1\//, "");
    const by = who(c.auth);
    let kind;
    let want;
    if (name === "variants" || name === "deal") {
      [kind, want] = [name, "none"];
    } else if (name === "apply-move" || name === "suggest-move") {
      // a bot's move names its seat (or is advised for it); yours and your hint are seat 0's
      const bot = c.status === 200 ? (c.answer.seat ?? 0) !== 0 : c.body.seat !== undefined;
      [kind, want] = [`${name} ${bot ? "bot" : "you"}`, bot ? "host" : "seat0"];
    } else if (name === "next-deal") {
      [kind, want] = [name, "host"];
    } else {
      [kind, want] = [name, "seat0"]; // score-hand, and view / legal-moves if it made them
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    if (by !== want) problems.push(`${kind} presented ${by}'s credential, not ${want}'s`);
    for (const v of c.answer?.views ?? []) {
      if ((v.seat ?? 0) !== 0) problems.push(`${kind} answered seat ${v.seat}'s view to the page`);
    }
  }
  return { problems, kinds };
}

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
  await page.route(/\/v1\//, async (route) => {
    const request = route.request();
    const call = {
      path: new URL(request.url()).pathname,
      auth: (await request.allHeaders()).authorization ?? "",
      body: JSON.parse(request.postData() ?? "{}"),
    };
    const response = await route.fetch();
    const text = await response.text();
    call.status = response.status();
    call.answer = JSON.parse(text || "{}");
    calls.push(call); // recorded before the page sees the answer
    await route.fulfill({ response, body: text });
  });
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
  let hintShown = "";
  let compared = 0;
  const leaks = [];
  await settle();
  while ((await state()) === "your-turn") {
    if (++turns > MAX_TURNS) throw new Error(`no end of the hand after ${MAX_TURNS} turns`);
    leaks.push(...await compareWithHost(page));
    compared++;
    const moves = await page.$$eval("#moves button.move", (bs) => bs.map((b) => b.dataset.move));
    if (!hintShown && moves.some((m) => m.startsWith("discard"))) {
      // the hint: asked with your token, shown, and its move marked in the list
      await page.click("#hint");
      await page.waitForSelector("#hint-text:not([hidden])", { timeout: 10_000 });
      hintShown = await page.$eval("#hint-text", (el) => el.textContent);
      const marked = await page.$$eval("#moves button.move.hinted", (bs) => bs.map((b) => b.dataset.move));
      console.log(`${hintShown}; marked ${marked}`);
      if (!/^Hint \(greedy bot\): \S/.test(hintShown) || marked.length !== 1) {
        throw new Error(`hint not shown plainly: ${hintShown} (marked ${marked})`);
      }
    }
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
  leaks.push(...await compareWithHost(page));
  compared++;
  await page.screenshot({ path: shot, fullPage: true });
  // the bots' moves in the log are those the host's answers named (a move played is public)
  const played = new Set(calls.filter((c) => c.path === "/v1/apply-move" && c.status === 200
    && (c.answer.seat ?? 0) !== 0).map((c) => `seat ${c.answer.seat} (greedy): ${c.answer.move.text}`));
  for (const line of await page.$$eval("#log li", (lis) => lis.map((li) => li.textContent))) {
    if (/^seat \d/.test(line) && !played.has(line)) leaks.push(`log line not a bot's move: ${line}`);
  }

  let nextDealt = "";
  if (final === "hand-over") {
    // the next deal is the host's; the page then shows seat 0's new hand and no other
    await page.click("#next-hand");
    await page.waitForFunction(() => [...document.querySelectorAll("#log li")]
      .some((li) => li.textContent === "next hand dealt"), null, { timeout: 60_000 });
    await settle();
    nextDealt = await state();
    leaks.push(...await compareWithHost(page));
    compared++;
  }
  if (!refusedShown) problems.push("no refused move was tried");
  if (!hintShown) problems.push("no hint was asked");
  const credentials = checkCredentials();
  console.log("RESULT " + JSON.stringify({
    state: final, turns, rows, hand, sides, refusedShown, hintShown, nextDealt, compared,
    leaks, credentialProblems: credentials.problems, calls: credentials.kinds, problems,
  }));
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
