// Plays a whole hand of the web table (/play) in headless Chromium the way a person does:
// selecting cards in the hand (clicks, taps or the keyboard) and pressing the moves the
// page offers; nothing is typed but one deliberately refused move. Screenshots at the
// start, mid-hand and at the hand's end, each on a desktop and a phone viewport.
//
//   node tests/web/play_hand.mjs BASE_URL OUT_DIR VARIANT SEED LANG VIEWPORT [NEXT_DEAL]
//
// LANG (en | ru) is the browser's language, which the page must pick up; half-way the
// test presses the language switch, so the hand is played in both. VIEWPORT (desktop |
// phone) is the one played on (a phone context taps); screenshots are taken on both.
//
// Each of your turns: the page's hint (SuggestMove with your token) names a move; the
// test clears the selection, selects that move's cards itself (a group's cards by rank,
// other copies than the hint's where the hand has them), checks that the page offers
// only listed moves those cards make, the hinted one among them, and presses it.
//
// Credentials and secrecy: every request the page sends is recorded with its answer. The
// calls made for you (your moves, the hint, the score) must present seat 0's token and
// the bots' moves and the next deal the host token (both from the Deal answer); no answer
// may carry another seat's view. At each of your turns the page is compared with the
// host's full view of the same snapshot (fetched here with the host token): it shows seat
// 0's hand and moves, the public table, and no other card. Any console error (but the
// refused move's own 400) and any request to another origin fail the run.
//
// Prints one line per turn and "RESULT {json}" at the end; exits non-zero on any failure.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, speakNames, watch } from "./chromium.mjs";

const [base, outDir, variant = "classic", seed = "7", lang = "en", viewport = "desktop", nextDeal = ""] =
  process.argv.slice(2);
const MAX_TURNS = 300;
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const OTHER = { en: "ru", ru: "en" };
const CARD = /^(JK|[2-9TJQKA][SHDC])$/;
const CODE_IN_TEXT = /\b(JK|[2-9TJQKA][SHDC])\b/;
// the page's own card names (a data: URL is an ES module wherever the file lies)
const { cardName } = await import("data:text/javascript;base64," + Buffer.from(
  readFileSync(new URL("../../clients/web/i18n.js", import.meta.url), "utf8")).toString("base64"));
const origin = new URL(base).origin;
mkdirSync(outDir, { recursive: true });

// What the page sent and got, in order: { path, auth, language, body, status, answer }.
const calls = [];
// Every request to the server under test, "METHOD /path": the page's files and the API
const requested = new Set();
const blocked = [];
const problems = [];
const lastSnapshot = () => calls.findLast((c) => c.status === 200 && c.answer?.snapshot)?.answer.snapshot;
const tokens = () => {
  const dealt = calls.find((c) => c.path === "/v1/deal" && c.status === 200)?.answer ?? {};
  return { host: dealt.hostToken ?? "", seat0: (dealt.seatTokens ?? [])[0] ?? "" };
};

function tally(codes) {
  const out = new Map();
  for (const c of codes) out.set(c, (out.get(c) ?? 0) + 1);
  return out;
}
const sameTally = (a, b) => a.size === b.size && [...a].every(([k, n]) => b.get(k) === n);
const sorted = (codes) => codes.slice().sort().join(" ");

async function hostView() {
  const resp = await fetch(`${base}/v1/view`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${tokens().host}` },
    body: JSON.stringify({ snapshot: lastSnapshot() }),
  });
  return (await resp.json()).views ?? [];
}

// The page now against the host's full view of its latest snapshot: seat 0's hand and
// moves, the public table, and no other card. Returns the problems found.
async function compareWithHost(page) {
  const views = await hostView();
  if (views.length < 2) return [`the host's view has ${views.length} seat(s)`];
  const mine = views[0];
  const shown = await page.evaluate(() => ({
    hand: [...document.querySelectorAll("#hand .card")].map((c) => c.dataset.card),
    cards: [...document.querySelectorAll("[data-card]")].map((c) => c.dataset.card),
    moves: [...document.querySelectorAll("#moves button.move")].map((b) => b.dataset.move),
    written: [...document.querySelectorAll("#moves button.move")].map((b) => b.textContent),
  }));
  const out = [];
  if (JSON.stringify(shown.hand) !== JSON.stringify(mine.hand ?? [])) {
    out.push(`hand shown ${shown.hand} is not seat 0's ${mine.hand}`);
  }
  // (two seats may hold the same cards, as a lone JD in Samba's three packs: a hand that
  // is seat 0's is seat 0's)
  for (const other of views.slice(1)) {
    if ((other.hand ?? []).length && JSON.stringify(shown.hand) === JSON.stringify(other.hand)
        && JSON.stringify(shown.hand) !== JSON.stringify(mine.hand ?? [])) {
      out.push(`the hand shown is seat ${other.seat}'s`);
    }
  }
  if (JSON.stringify(shown.moves) !== JSON.stringify(mine.legalMoves ?? [])) {
    out.push(`moves shown ${shown.moves} are not seat 0's ${mine.legalMoves}`);
  }
  // the move list is written with the hand's card faces (10♥), not the codes (TH)
  const coded = shown.written.filter((t) => CODE_IN_TEXT.test(t));
  if (coded.length) problems.push(`the move list shows card codes: ${coded}`);
  // every card on the page: seat 0's hand, the melds, the red threes and the pile top
  const expected = [...(mine.hand ?? []), ...(mine.pileTop ? [mine.pileTop] : [])];
  for (const side of mine.sides ?? []) {
    for (const m of side.melds ?? []) expected.push(...m.cards);
    expected.push(...(side.redThrees ?? []));
  }
  if (!sameTally(tally(shown.cards), tally(expected))) {
    out.push(`cards on the page ${sorted(shown.cards)} are not seat 0's hand and the table ${sorted(expected)}`);
  }
  return out;
}

// Which credential each recorded call presented, against what it should: the problems,
// and how many calls of each kind ("apply-move you", "suggest-move bot", ...).
function checkCredentials() {
  const { host, seat0 } = tokens();
  const out = [];
  const kinds = {};
  if (!host || !seat0 || host === seat0) out.push("the deal answered no host and seat tokens");
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
    if (by !== want) out.push(`${kind} presented ${by}'s credential, not ${want}'s`);
    for (const v of c.answer?.views ?? []) {
      if ((v.seat ?? 0) !== 0) out.push(`${kind} answered seat ${v.seat}'s view to the page`);
    }
  }
  return { problems: out, kinds };
}

// How the test reads a move's hand cards: the codes of its text (not the label after
// "on", "add" or "layoff"), each with whether it must be that very card (a discard, a
// going out, a sequence's) or any card of its rank (a group's: the engine takes the
// lowest copies itself) or any wild card of its kind.
function cardsOf(text) {
  const words = text.split(/\s+/);
  const kind = words[0];
  if (kind === "discard" || kind === "out" || kind === "layoff") {
    return words.filter((w) => CARD.test(w)).map((code) => ({ code, exact: true }));
  }
  const sequenceLabel = (kind === "add" && words[1].includes(":"))
    || (kind === "take" && /\bon \S*:/.test(text));
  const out = [];
  for (const part of text.slice(kind.length).split(" / ")) {
    const codes = part.trim().split(/\s+/).filter((w) => CARD.test(w));
    const naturals = new Set(codes.filter((c) => c !== "JK" && c[0] !== "2").map((c) => c[0]));
    const exact = sequenceLabel || naturals.size > 1;
    for (const code of codes) out.push({ code, exact });
  }
  return out;
}

// A card's kind for the test's own check of what the page offers: its rank, wilds as one.
const rankKey = (code) => (code === "JK" || code[0] === "2" ? "wild" : code[0]);

// The hand positions the test selects for a move: the very card where it must be, else a
// card of the same rank (or a wild card of the same kind), preferring another copy than
// the one the move names, so the page must match by shape as the engine does.
function choosePositions(hand, needed) {
  const used = new Set();
  const pick = (ok) => {
    const i = hand.findIndex((c, k) => !used.has(k) && ok(c));
    if (i >= 0) used.add(i);
    return i;
  };
  const exact = needed.filter((n) => n.exact || n.code === "JK");
  const loose = needed.filter((n) => !n.exact && n.code !== "JK");
  const out = exact.map((n) => pick((c) => c === n.code));
  for (const n of loose) {
    const same = (c) => (n.code[0] === "2" ? c[0] === "2" : c[0] === n.code[0]);
    const i = pick((c) => same(c) && c !== n.code);
    out.push(i >= 0 ? i : pick((c) => same(c)));
  }
  return out;
}

const size = VIEWPORTS[viewport];
const { context, close } = await launch({
  viewport: size,
  locale: lang === "ru" ? "ru-RU" : "en-US",
  isMobile: viewport === "phone",
  hasTouch: viewport === "phone",
  reducedMotion: "reduce",
});
let refusing = false; // while the one refused move is sent, its 400 is the expected console line
let refusalLogged = 0;
const shots = [];
try {
  await speakNames(context);
  // the network: the server under test answers; any other origin is blocked and recorded
  await context.route(() => true, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (url.origin !== origin) {
      blocked.push(request.url());
      await route.abort("internetdisconnected");
      return;
    }
    requested.add(`${request.method()} ${url.pathname}`);
    if (!url.pathname.startsWith("/v1/")) {
      await route.continue();
      return;
    }
    const headers = await request.allHeaders();
    const call = {
      path: url.pathname,
      auth: headers.authorization ?? "",
      language: headers["accept-language"] ?? "",
      body: JSON.parse(request.postData() ?? "{}"),
    };
    const response = await route.fetch();
    const text = await response.text();
    call.status = response.status();
    call.answer = JSON.parse(text || "{}");
    calls.push(call); // recorded before the page sees the answer
    await route.fulfill({ response, body: text });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems, (text) => refusing && /status of 400/.test(text) && refusalLogged++ === 0);
  const press = async (selector) => (viewport === "phone" ? page.tap(selector) : page.click(selector));

  const state = () => page.$eval("#status", (el) => el.dataset.state);
  const settle = () => page.waitForFunction(
    () => ["your-turn", "hand-over", "game-over"].includes(document.querySelector("#status").dataset.state),
    null, { timeout: 60_000 });
  let current = lang;
  // a screenshot on each viewport, the one played on last (so the page is left as it was)
  const screenshots = async (moment) => {
    const order = viewport === "phone" ? ["desktop", "phone"] : ["phone", "desktop"];
    for (const name of order) {
      await page.setViewportSize(VIEWPORTS[name]);
      await page.evaluate(() => new Promise((done) => {
        window.scrollTo(0, 0);
        requestAnimationFrame(() => done());
      }));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${moment} on ${name}: the page is ${overflow}px wider than the screen`);
      const path = join(outDir, `${variant}-${moment}-${current}-${name}.png`);
      await page.screenshot({ path, fullPage: name === "phone" });
      shots.push(path);
    }
  };

  await page.goto(`${base}/play?variant=${variant}&players=4&seed=${seed}&bot=greedy&delay=0`);
  await page.waitForSelector("body[data-ready=true]");
  const pageLang = await page.$eval("html", (el) => el.lang);
  if (pageLang !== lang) problems.push(`the browser speaks ${lang}, the page chose ${pageLang}`);
  await press("#new-game");
  await settle();

  let turns = 0;
  let hints = 0;
  let compared = 0;
  let keyboardSelections = 0;
  let shapeMatches = 0;
  let drawnChecked = 0;
  let accessibleChecked = 0;
  let switched = "";
  let refused = "";
  const leaks = [];
  const played = [];
  let midShot = false;
  while ((await state()) === "your-turn") {
    if (++turns > MAX_TURNS) throw new Error(`no end of the hand after ${MAX_TURNS} turns`);
    leaks.push(...await compareWithHost(page));
    compared++;
    if (turns === 1) await screenshots("start");

    if (turns === 1 && lang === "ru") {
      // one move the rules refuse, typed: the page says why, in the page's language
      await page.click("#moves-panel summary");
      await page.fill("#move-text", "meld 2C 2D 2H");
      refusing = true;
      await page.click("#play-text");
      await page.waitForSelector("#error:not([hidden])", { timeout: 10_000 });
      refusing = false;
      refused = await page.$eval("#error", (el) => `${el.dataset.reason}: ${el.textContent}`);
      await page.click("#moves-panel summary");
      console.log(`refused as expected: ${refused}`);
    }

    const host = (await hostView())[0];
    const legal = host.legalMoves ?? [];
    // with nothing selected the page offers the moves that use no hand card
    if (await page.$("#actions button.clear")) await press("#actions button.clear");
    const bare = await page.$$eval("#actions button.action", (bs) => bs.map((b) => b.dataset.move));
    const cardless = legal.filter((m) => !m.split(/\s+/).some((w) => CARD.test(w)));
    if (sorted(bare) !== sorted(cardless)) {
      problems.push(`turn ${turns}: with no card selected the page offers ${bare}, not ${cardless}`);
    }

    // the hint names a move and selects its cards
    await press("#hint");
    await page.waitForSelector("#hint-text:not([hidden])", { timeout: 10_000 });
    hints++;
    const hinted = await page.$eval("#hint-text", (el) => el.dataset.move);
    if (!legal.includes(hinted)) throw new Error(`the hint ${hinted} is not a listed move`);
    if (await page.$("#actions button.clear")) await press("#actions button.clear");

    // select the move's cards the way a player does
    const hand = await page.$$eval("#hand .card", (cs) => cs.map((c) => c.dataset.card));
    const needed = cardsOf(hinted);
    const positions = choosePositions(hand, needed);
    if (positions.includes(-1)) throw new Error(`the hand ${hand} lacks the cards of ${hinted}`);
    if (positions.some((i, k) => hand[i] !== needed[k]?.code)) shapeMatches++;
    const byKeyboard = viewport === "desktop" && turns % 2 === 0 && positions.length > 0;
    if (byKeyboard) {
      // Tab lands on the hand's focused card; arrows move along the hand, Space selects
      await page.focus("#hand .card[tabindex='0']");
      let at = await page.$eval("#hand .card[tabindex='0']", (el) => Number(el.dataset.index));
      for (const i of positions) {
        const key = i > at ? "ArrowRight" : "ArrowLeft";
        for (let k = 0; k < Math.abs(i - at); k++) await page.keyboard.press(key);
        at = i;
        await page.keyboard.press("Space");
      }
      keyboardSelections++;
    } else {
      for (const i of positions) await press(`#hand .card[data-index="${i}"]`);
    }
    const pressed = await page.$$eval("#hand .card[aria-pressed=true]", (cs) => cs.map((c) => Number(c.dataset.index)));
    if (sorted(pressed.map(String)) !== sorted(positions.map(String))) {
      problems.push(`turn ${turns}: selected ${positions}, the page shows ${pressed} selected`);
    }
    const offered = await page.$$eval("#actions button.action", (bs) => bs.map((b) => b.dataset.move));
    if (!offered.includes(hinted)) throw new Error(`selecting ${positions.map((i) => hand[i])} does not offer ${hinted} (offers ${offered})`);
    if (positions.length) {
      // only listed moves, each made of the selected cards
      const want = sorted(positions.map((i) => rankKey(hand[i])));
      for (const m of offered) {
        if (!legal.includes(m)) problems.push(`turn ${turns}: offered ${m}, which is not listed`);
        const its = sorted(cardsOf(m).map((n) => rankKey(n.code)));
        if (its !== want) problems.push(`turn ${turns}: offered ${m} for the cards ${positions.map((i) => hand[i])}`);
      }
    }
    // every card and every button has an accessible name: a card is named as the page's
    // language names it (the hand's: "(just drawn)" may follow), a move button says its
    // cards by name, neither by code nor by suit symbol (each name as it is heard: speakNames)
    const named = await page.evaluate(() => ({
      unnamed: [...document.querySelectorAll("button, #hand .card, [data-card]")]
        .filter((e) => !window.spokenName(e).trim()).map((e) => e.outerHTML.slice(0, 80)),
      cards: [...document.querySelectorAll("[data-card]")].map((e) => [e.dataset.card, window.spokenName(e)]),
      moves: [...document.querySelectorAll("#actions button.action, #moves button.move")]
        .map((b) => window.spokenName(b)),
      lang: document.documentElement.lang,
    }));
    if (named.unnamed.length) problems.push(`turn ${turns}: nameless ${named.unnamed}`);
    const misnamed = named.cards.filter(([code, label]) => label !== cardName(code, named.lang)
      && !label.startsWith(`${cardName(code, named.lang)} (`));
    if (misnamed.length) problems.push(`turn ${turns}: cards named ${JSON.stringify(misnamed)}`);
    const unspoken = named.moves.filter((label) => !label || CODE_IN_TEXT.test(label) || /[♠♥♦♣]/.test(label));
    if (unspoken.length) problems.push(`turn ${turns}: move buttons named ${JSON.stringify(unspoken)}`);
    accessibleChecked += named.cards.length;

    if (!midShot && (turns >= 12 || (turns >= 4 && positions.length >= 2))) {
      // mid-hand: cards selected, the moves they make offered; then the other language
      midShot = true;
      await screenshots("mid");
      const before = await page.$eval("#status", (el) => el.textContent);
      current = OTHER[lang];
      await press(`button.lang[data-lang="${current}"]`);
      const after = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        status: document.querySelector("#status").textContent,
        card: window.spokenName(document.querySelector("#hand .card") ?? document.createTextNode("")),
        log: document.querySelector("#log li")?.textContent ?? "",
      }));
      const cyrillic = /[а-яё]/i;
      if (after.lang !== current || after.status === before
          || cyrillic.test(after.card) !== (current === "ru") || cyrillic.test(after.log) !== (current === "ru")) {
        problems.push(`the switch to ${current} left ${JSON.stringify(after)}`);
      }
      switched = current;
    }

    const before = await page.$eval("#log", (el) => Number(el.dataset.count ?? 0));
    const applied = calls.length;
    if (byKeyboard) {
      await page.focus(`#actions button.action[data-move="${hinted}"]`);
      await page.keyboard.press("Enter");
    } else {
      await press(`#actions button.action[data-move="${hinted}"]`);
    }
    await page.waitForFunction((n) => {
      const st = document.querySelector("#status").dataset.state;
      const grew = Number(document.querySelector("#log").dataset.count ?? 0) > n;
      const err = !document.querySelector("#error").hidden;
      return st !== "bots" && (grew || err);
    }, before, { timeout: 60_000 });
    const err = await page.$eval("#error", (el) => (el.hidden ? "" : el.textContent));
    if (err) throw new Error(`listed move ${hinted} refused: ${err}`);
    played.push(hinted);
    console.log(`turn ${turns}: ${hinted}${byKeyboard ? " (keyboard)" : ""}`);

    // a card you drew is marked in your hand
    const answer = calls.slice(applied).find((c) => c.path === "/v1/apply-move")?.answer ?? {};
    const drew = (answer.events ?? []).filter((e) => e.type === "EVENT_TYPE_CARDS_DRAWN" && (e.seat ?? 0) === 0)
      .flatMap((e) => e.cards ?? []);
    if (hinted === "draw" && (answer.awaited ?? -1) === 0) {
      const now = answer.views[0].hand;
      const left = tally(now);
      const expect = drew.filter((c) => (left.get(c) ?? 0) > 0 && left.set(c, left.get(c) - 1));
      const marked = await page.$$eval("#hand .card.drawn", (cs) => cs.map((c) => c.dataset.card));
      if (sorted(marked) !== sorted(expect)) problems.push(`drew ${drew}, the page marks ${marked}`);
      drawnChecked++;
    }
    await settle();
  }

  const final = await state();
  if (!["hand-over", "game-over"].includes(final)) throw new Error(`ended in state ${final}`);
  await page.waitForSelector("#result-panel:not([hidden]) #score-table");
  leaks.push(...await compareWithHost(page));
  compared++;
  await screenshots("end");

  // the scores: the hand's breakdown and each side's match total, as ScoreHand answered
  const score = calls.findLast((c) => c.path === "/v1/score-hand")?.answer ?? {};
  const shown = await page.evaluate(() => ({
    totals: [...document.querySelectorAll("#score-table tr[data-row=total] td")].map((td) => Number(td.textContent)),
    match: [...document.querySelectorAll("#score-table tr[data-row=cumulative] td")].map((td) => Number(td.textContent)),
    rows: [...document.querySelectorAll("#score-table tr[data-row]")].map((tr) => tr.dataset.row),
    scores: [...document.querySelectorAll("#scores tbody tr")].map((tr) => Number(tr.children[1].textContent)),
  }));
  const want = { totals: (score.sides ?? []).map((s) => s.total ?? 0), match: (score.sides ?? []).map((s) => s.cumulative ?? 0) };
  if (JSON.stringify(shown.totals) !== JSON.stringify(want.totals)
      || JSON.stringify(shown.match) !== JSON.stringify(want.match)
      || JSON.stringify(shown.scores) !== JSON.stringify(want.match)) {
    problems.push(`scores shown ${JSON.stringify(shown)} are not ScoreHand's ${JSON.stringify(want)}`);
  }

  // the table: every meld with its label visible, canastas marked natural or mixed
  const table = (await hostView())[0];
  const melds = await page.$$eval(".side-melds", (boxes) => boxes
    .sort((a, b) => Number(a.dataset.team) - Number(b.dataset.team))
    .flatMap((box) => [...box.querySelectorAll(".meld")]).map((f) => {
    const label = f.querySelector(".label");
    const badge = f.querySelector(".canasta-kind");
    return {
      label: f.dataset.label,
      labelShown: label ? label.textContent : "",
      labelVisible: !!label && label.getBoundingClientRect().width > 0,
      canasta: f.dataset.canasta,
      badge: badge ? badge.textContent : "",
    };
  }));
  const teams = table.sides.map((s) => s.team);
  if (JSON.stringify(teams) !== JSON.stringify(teams.slice().sort((a, b) => a - b))) problems.push(`sides ${teams} not by team`);
  const expectMelds = table.sides.flatMap((s) => s.melds ?? []);
  const canastas = expectMelds.filter((m) => m.canasta).length;
  if (melds.length !== expectMelds.length) problems.push(`${melds.length} melds shown, ${expectMelds.length} on the table`);
  for (const [i, m] of expectMelds.entries()) {
    const got = melds[i] ?? {};
    if (got.label !== m.label || got.labelShown !== m.label || !got.labelVisible) {
      problems.push(`meld ${m.label} shown as ${JSON.stringify(got)}`);
    }
    if ((got.canasta ?? "") !== (m.canasta ?? "") || (m.canasta && !got.badge)) {
      problems.push(`canasta ${m.label} (${m.canasta}) shown as ${JSON.stringify(got)}`);
    }
  }

  // the bots' moves are told as sentences: the seat's name, the move the host's answer
  // named, no card code, and no card of a bot's draw (the host's answers name them)
  const botMoves = calls.filter((c) => c.path === "/v1/apply-move" && c.status === 200 && (c.answer.seat ?? 0) !== 0);
  const botPlayed = new Set(botMoves.map((c) => `${c.answer.seat} ${c.answer.move.text}`));
  const names = await page.$$eval(".seat", (ss) => Object.fromEntries(ss.map((s) => [s.dataset.seat, s.querySelector(".seat-name").textContent])));
  const lines = await page.$$eval("#log li", (lis) => lis.map((li) => ({ ...li.dataset, text: li.textContent })));
  let sentences = 0;
  for (const line of lines) {
    if (line.kind !== "move" || line.seat === "0") continue;
    sentences++;
    if (!botPlayed.has(`${line.seat} ${line.move}`)) leaks.push(`log line not a bot's move: ${line.text}`);
    if (!line.text.startsWith(names[line.seat])) problems.push(`"${line.text}" does not name ${names[line.seat]}`);
    if (/\b(JK|[2-9TJQKA][SHDC])\b/.test(line.text)) problems.push(`"${line.text}" is notation, not a sentence`);
    if (line.move === "draw" && /[♠♥♦♣]/.test(line.text)) leaks.push(`a bot's draw shows cards: ${line.text}`);
  }
  if (!sentences) problems.push("no bot's move in the log");
  // the language every call asked for is the page's at the time
  const languages = [...new Set(calls.map((c) => c.language))];

  let nextDealt = "";
  if (nextDeal && final === "hand-over") {
    // the next deal is the host's; the page then shows seat 0's new hand and no other,
    // and the match totals carried over
    await press("#next-hand");
    await page.waitForSelector("#board[data-hand='1']", { timeout: 60_000 });
    await settle();
    nextDealt = await state();
    leaks.push(...await compareWithHost(page));
    compared++;
    const carried = await page.$$eval("#scores tbody tr", (trs) => trs.map((tr) => Number(tr.children[1].textContent)));
    if (JSON.stringify(carried) !== JSON.stringify(want.match)) problems.push(`after the next deal the match totals show ${carried}, not ${want.match}`);
  }
  if (lang === "ru" && !refused) problems.push("no refused move was tried");
  if (!switched) problems.push("the language was never switched");
  const credentials = checkCredentials();
  console.log("RESULT " + JSON.stringify({
    state: final, turns, hints, played, compared, keyboardSelections, shapeMatches, drawnChecked,
    accessibleChecked, requested: [...requested].sort(),
    switched, refused, canastas, melds: expectMelds.length, sentences, languages, rows: shown.rows,
    nextDealt, shots, blocked, leaks, credentialProblems: credentials.problems, calls: credentials.kinds,
    problems,
  }));
  if (problems.length || blocked.length) throw new Error([...problems, ...blocked].join("; "));
} catch (err) {
  const page = context.pages()[0];
  if (page) {
    const status = await page.$eval("#status", (el) => `${el.dataset.state}: ${el.textContent}`).catch(() => "?");
    const error = await page.$eval("#error", (el) => el.textContent).catch(() => "?");
    const log = await page.$$eval("#log li", (lis) => lis.slice(0, 8).map((li) => li.textContent)).catch(() => []);
    console.log(`FAILED at status ${status}; error: ${error}; last log: ${log.join(" | ")}; problems: ${problems.join(" | ")}`);
    await page.screenshot({ path: join(outDir, `${variant}-failed.png`), fullPage: true }).catch(() => {});
  }
  throw err;
} finally {
  await close();
}
