// The canastas of a hand's result by their kinds, without playing the hand: each CASE
// ("variant:lang") deals a new game whose view the test turns into a hand just over, your
// side's melds a sequence canasta (a samba, or Bolivia's escalera) and a mixed canasta, the
// other side's a canasta of wild cards (a bolivia) and a natural one, and answers the page's
// ScoreHand with the breakdown the engine gives such melds: the natural and mixed counts (a
// sequence among the natural canastas, a meld of wild cards among the mixed) and the
// canastas by kind (breakdown.canastas), each kind's count and bonuses, named as the service
// names them in the game. Read: the line under each side's canasta bonus in the result table,
// which the page takes from the tallies alone (it took the melds of the view out of the counts).
//
//   node tests/web/canasta_kinds.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's lines, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
const meld = (label, kind, canasta, canastaKind, cards) => ({
  label, kind, canasta, canastaKind, cards, rank: label, owner: 0, wilds: cards.filter((c) => c === "JK" || c[0] === "2").length });
let variant = "";
const yours = () => [
  meld("S:5-J", "sequence", "natural", variant === "samba" ? "samba" : "escalera", ["5S", "6S", "7S", "8S", "9S", "TS", "JS"]),
  meld("K", "group", "mixed", "mixed", ["KS", "KH", "KD", "KC", "KS", "2S", "JK"]),
];
const THEIRS = [
  meld("W", "wild", "mixed", "bolivia", ["JK", "JK", "2S", "2H", "2D", "2C", "2H"]),
  meld("9", "group", "natural", "natural", ["9S", "9H", "9D", "9C", "9S", "9H", "9D"]),
];
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  let sides = [];
  await context.route("**/v1/deal", async (route) => {
    const response = await route.fetch();
    const dealt = await response.json();
    const view = dealt.views[0];
    for (const side of view.sides) side.melds = side.seats.includes(0) ? yours() : THEIRS;
    Object.assign(view, { awaited: -1, legalMoves: [] });
    dealt.events = [...(dealt.events ?? []), { type: "EVENT_TYPE_HAND_OVER", seat: -1 }];
    sides = view.sides;
    await route.fulfill({ response, json: dealt });
  });
  // the engine's tallies of those melds, in its order (natural, mixed, sequence, wild)
  const tallies = (mine) => (mine
    ? [{ kind: "mixed", count: 1, bonus: 300 }, { kind: variant === "samba" ? "samba" : "escalera", count: 1, bonus: 1500 }]
    : [{ kind: "natural", count: 1, bonus: 500 }, { kind: "bolivia", count: 1, bonus: 2500 }]);
  await context.route("**/v1/score-hand", (route) => route.fulfill({ json: {
    handOver: true, gameOver: false, wentOut: -1, winner: -1,
    sides: sides.map((s) => ({ team: s.team, seats: s.seats, total: 0, cumulative: 0,
      breakdown: { canastaBonus: s.seats.includes(0) ? 1800 : 3000, naturalCanastas: 1, mixedCanastas: 1,
        canastas: tallies(s.seats.includes(0)) } })),
  } }));
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const name of cases) {
    const lang = name.split(":")[1];
    variant = name.split(":")[0];
    await page.goto(`${base}/play?variant=${variant}&players=4&seed=5&bot=greedy&delay=0&lang=${lang}`);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#new-game");
    await page.waitForSelector("#result-panel:not([hidden]) #score-table", { timeout: 30_000 });
    found[name] = await page.$$eval("#score-table tr[data-row=canastas] td .sub", (subs) => subs.map((s) => s.textContent));
    if (!sides[0].seats.includes(0)) found[name].reverse(); // yours first
  }
}, () => ({ cases: found }));
