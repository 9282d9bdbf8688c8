// The melds on the table as the moves name them, from positions: each CASE (JSON: name,
// variant, players, lang, position) starts a new game whose deal is answered with the
// position imported (dealPositions), at your turn, and reads each side's melds (the mark
// shown in each caption, its label, its accessible name as a screen reader gets it, its
// cards, whether the caption fits under the fan) and the words of every move listed.
//
//   node tests/web/meld_numbers.mjs BASE_URL OUT_DIR CASES_JSON
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": each case's melds by team and
// moves, any problems. A screenshot of the melds goes to OUT_DIR (meld-numbers-NAME.png).
import { dealPositions, newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, outDir, casesJson] = process.argv.slice(2);
const cases = JSON.parse(casesJson);
const problems = [];
const found = {};
let position = ""; // the position the next deal is answered with
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await dealPositions(context, base, () => position);
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const c of cases) {
    position = c.position;
    await newGameAtYourTurn(page, base, { variant: c.variant, players: c.players, seed: 1, lang: c.lang });
    const melds = {};
    for (const fig of await page.locator(".side-melds .meld").all()) {
      const seen = await fig.evaluate((node) => {
        const mark = node.querySelector(".meld-no");
        const cards = node.querySelector(".meld-cards").getBoundingClientRect();
        return {
          team: node.closest(".side-melds").dataset.team,
          mark: mark && mark.checkVisibility() ? mark.textContent : null,
          label: node.querySelector(".label")?.textContent ?? null,
          cards: [...node.querySelectorAll(".meld-cards .card")].map((card) => card.dataset.card),
          fits: node.querySelector("figcaption").getBoundingClientRect().width <= cards.width,
        };
      });
      // the accessible name, from the snapshot's first line: - figure "meld 1, 3 cards"
      const snapshot = await fig.ariaSnapshot();
      seen.name = /^- figure "(.*)"/.exec(snapshot)?.[1] ?? snapshot.split("\n")[0];
      (melds[seen.team] ??= []).push(seen);
      delete seen.team;
    }
    const moves = await page.$$eval("#moves button", (items) => items.map((b) => ({
      move: b.dataset.move, words: b.title })));
    found[c.name] = { melds, moves };
    await page.locator("#felt").screenshot({ path: `${outDir}/meld-numbers-${c.name.replace(/\W/g, "-")}.png` });
  }
}, () => ({ cases: found }));
