// The line under the scores, game by game: the match target, or the deal of how many.
// Each CASE ("variant:players:lang", a "=N" tail for a deal asked with the target_score
// option N, as a host deals one; an "@H" tail for a game imported at its deal H, from 0,
// in place of the deal, then any ",option=value" it has) deals a new game and reads the
// line at your first turn.
//
//   node tests/web/match_target.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's line, any problems.
import { newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const lines = {};
let target = ""; // the target_score the next deal is asked with, "" none
let hand = ""; // the deal the next game is imported at, "" dealt as asked
let options = "-"; // the imported game's options line

// A position at deal `hand` of the game asked (every card filled in by the seed), your
// seat 0 to draw first: what a game played that far would hold.
function position(body) {
  const head = body.variant === "may_i" ? "mayi-position 1" : "canasta-position 1";
  const hands = Array.from({ length: body.players }, (_, s) => `hand${s}: *11`);
  return [head, `variant: ${body.variant}`, `players: ${body.players}`, `options: ${options}`, `hand: ${hand}`,
    `dealer: ${body.players - 1}`, ...hands, "pile: *1", "stock: *", ""].join("\n");
}

await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  await context.route("**/v1/deal", async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}");
    if (hand) {
      const imported = await route.fetch({ url: `${base}/v1/position:import`, method: "POST",
        postData: JSON.stringify({ position: position(body), viewSeat: body.viewSeat ?? 0 }) });
      await route.fulfill({ response: imported });
      return;
    }
    if (target) body.options = { ...body.options, target_score: target };
    await route.continue({ postData: JSON.stringify(body) });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const name of cases) {
    const [dealt, imported = ""] = name.split("@");
    const [game, asked = ""] = dealt.split("=");
    const [variant, players, lang] = game.split(":");
    const [at, ...opts] = imported.split(",");
    [target, hand, options] = [asked, at, opts.join(",") || "-"];
    await newGameAtYourTurn(page, base, { variant, players, seed: 5, lang });
    lines[name] = await page.$eval("#target", (el) => el.textContent);
  }
}, () => ({ lines }));
