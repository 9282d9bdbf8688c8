// A reload resumes the game this tab kept (sessionStorage). Each CASE ("kind:lang") plays
// classic Canasta for four (greedy bots, seed 3) in a tab of its own:
//   reload    you draw, discard and draw again (the bots between), then the page is
//             reloaded: the same hand, log and moves, asked with the kept snapshot (GetView,
//             seat 0's token), no deal; then you discard, answered with the next seq.
//   bots      the page is reloaded as soon as the first bot's move after your discard is
//             answered (the bots 300 ms apart): the resumed page plays the bots on to your turn.
//   refused   the kept snapshot is spoiled before the reload: the service refuses it, a new
//             game is dealt, and the status line says so.
//   other     the kept game is taken to a server with other keys (OTHER_BASE): refused there
//             too (its key unknown), a new game is dealt, and the status line says so.
// After a refusal (refused, other) you draw: the status line no longer says why the game was dealt.
//   away      the service is away at the reload (its calls refused at the socket): the error
//             offers "Try again", and once the service is back it resumes the kept game.
//   newgame   "New game" (seed 99) replaces the kept game: the reload finds the new one.
// Every case reads the cookies and the tab's localStorage once reloaded: no cookie, and
// nothing of the game in localStorage.
//
//   node tests/web/resume.mjs BASE_URL OTHER_BASE CASE...    (OTHER_BASE "" when no case is "other")
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": what each case read, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, other, ...cases] = process.argv.slice(2);
const GAME_KEY = "canasta.game";
const problems = [];
const found = {};
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  for (const name of cases) {
    const [kind, lang] = name.split(":");
    const page = await context.newPage(); // a tab of its own: its own sessionStorage
    // (the browser logs the refusal of a spoiled or foreign snapshot: the page's status is read here)
    const refusal = kind === "refused" || kind === "other";
    // (and a call the service away did not answer, in case away)
    watch(page, problems, (text) => (refusal && text.includes("the server responded with a status of"))
      || (kind === "away" && text.includes("net::ERR_CONNECTION_REFUSED")));
    // every API call and its answer, in order: { path, body, auth, status, answer }
    // (each stamped with the document that sent it: an old page's bot call answered while the
    // reload is on its way is not the resumed page's)
    const calls = [];
    const answered = [];
    let doc = 0;
    const docOf = new WeakMap();
    page.on("framenavigated", (frame) => { if (frame === page.mainFrame()) doc += 1; });
    page.on("request", (r) => docOf.set(r, doc));
    page.on("response", (r) => {
      const path = new URL(r.url()).pathname;
      if (!path.startsWith("/v1/")) return;
      const req = r.request();
      const call = { path, origin: new URL(r.url()).origin, body: JSON.parse(req.postData() ?? "null"),
        auth: (req.headers().authorization ?? "").replace("Bearer ", ""), status: r.status(), answer: null,
        doc: docOf.get(req) };
      calls.push(call);
      answered.push(r.json().then((a) => { call.answer = a; }, () => {}));
    });
    const settled = () => Promise.all(answered);
    const since = async (from) => {
      await settled();
      return calls.slice(from).filter((c) => c.doc === doc).map((c) => ({ path: c.path, status: c.status, auth: c.auth,
        snapshot: c.body?.snapshot ?? "", seat: c.body?.seat ?? null, seq: c.answer?.header?.seq ?? null,
        answered: c.answer?.snapshot ?? "", hand: c.answer?.views?.[0]?.hand ?? null,
        reason: (c.answer?.error?.details ?? []).find((d) => d.reason)?.reason ?? "" }));
    };
    const url = (at, delay) => `${at}/play?variant=classic&players=4&seed=3&bot=greedy&delay=${delay}&lang=${lang}`;
    const yourTurn = () => page.waitForFunction(() => document.querySelector("#status").dataset.state === "your-turn"
      && !document.querySelector("#hint").disabled, null, { timeout: 30_000 });
    const ready = async () => {
      await page.waitForSelector("body[data-ready=true]");
      await page.evaluate(() => { document.querySelector("#moves-panel").open = true; });
    };
    const read = () => page.evaluate((key) => ({
      state: document.querySelector("#status").dataset.state,
      status: document.querySelector("#status").textContent,
      error: document.querySelector("#error").hidden ? "" : document.querySelector("#error").textContent,
      hand: [...document.querySelectorAll("#hand .card")].map((c) => c.dataset.card),
      log: [...document.querySelectorAll("#log li")].map((li) => li.textContent),
      logged: Number(document.querySelector("#log").dataset.count ?? 0),
      moves: [...document.querySelectorAll("#moves button.move")].map((b) => b.dataset.move),
      kept: JSON.parse(sessionStorage.getItem(key) ?? "null"),
    }), GAME_KEY);
    const press = async (selector) => {
      await page.click(selector);
      await yourTurn();
    };
    const newGame = async () => {
      await page.click("#new-game");
      await yourTurn();
    };
    // one character of the sealed part of the kept snapshot changed
    const spoil = () => page.evaluate((key) => {
      const kept = JSON.parse(sessionStorage.getItem(key));
      if (!kept) return; // (nothing kept: the reload finds nothing to resume)
      const at = kept.snapshot.length - 10;
      kept.snapshot = kept.snapshot.slice(0, at) + (kept.snapshot[at] === "A" ? "B" : "A") + kept.snapshot.slice(at + 1);
      sessionStorage.setItem(key, JSON.stringify(kept));
    }, GAME_KEY);
    const seen = {};

    await page.goto(url(base, kind === "bots" ? 300 : 0));
    await ready();
    await newGame();
    seen.dealt = await read();
    await press('#actions button.action[data-move="draw"]');
    if (kind === "bots") {
      const botMoved = page.waitForResponse((r) => r.url().endsWith("/v1/apply-move")
        && JSON.parse(r.request().postData() ?? "{}").seat > 0, { timeout: 30_000 });
      await page.click('#moves button.move[data-move^="discard"]');
      const moved = await (await botMoved).json();
      // kept by the page, which now waits 300 ms before the next bot's move: reloaded then
      await page.waitForFunction(({ key, snapshot }) => JSON.parse(sessionStorage.getItem(key))?.snapshot === snapshot,
        { key: GAME_KEY, snapshot: moved.snapshot }, { timeout: 5_000 })
        .catch(() => problems.push(`${name}: the bot's move was not kept`));
    } else if (kind === "reload") {
      await press('#moves button.move[data-move^="discard"]');
      await press('#actions button.action[data-move="draw"]');
    }
    await settled();
    seen.before = await read();
    seen.lastSeq = calls.filter((c) => c.answer?.snapshot && c.answer.snapshot === seen.before.kept?.snapshot)
      .map((c) => c.answer.header.seq);
    if (kind === "refused") await spoil();
    if (kind === "newgame") {
      await page.fill("#seed", "99");
      await newGame();
      await settled();
      seen.replaced = await read();
    }
    if (kind === "other") {
      // the same tab's game, carried to another server (another origin: another storage)
      const carried = await page.evaluate((key) => sessionStorage.getItem(key), GAME_KEY);
      await page.goto(url(other, 0));
      await ready();
      await page.evaluate(({ key, carried }) => sessionStorage.setItem(key, carried), { key: GAME_KEY, carried });
    }
    const from = calls.length;
    let down = kind === "away";
    if (down) {
      await page.route("**/v1/**", (route) => (down ? route.abort("connectionrefused") : route.continue()));
    }
    await page.reload();
    await ready();
    if (kind === "away") {
      await page.waitForSelector("#error:not([hidden]) #retry", { timeout: 30_000 })
        .catch(() => problems.push(`${name}: no "Try again" while the service was away`));
      seen.away = await read();
      down = false;
      await page.click("#retry").catch(() => {});
    }
    // (read as it is if it never comes to your turn: a page that resumed nothing stays idle)
    await yourTurn().catch(() => {});
    seen.after = await read();
    seen.calls = await since(from);
    seen.cookies = (await context.cookies()).length;
    seen.local = await page.evaluate(() => Object.keys(localStorage));
    if (seen.after.state !== "your-turn") {
      found[name] = seen;
      await page.close();
      continue;
    }
    if (kind === "reload") {
      const next = calls.length;
      await press('#moves button.move[data-move^="discard"]');
      seen.played = { ...await read(), calls: (await since(next)).slice(0, 1) };
    }
    if (refusal) {
      await press('#actions button.action[data-move="draw"]');
      seen.drew = await read();
    }
    found[name] = seen;
    await page.close();
  }
}, () => ({ cases: found }));
