// The melds on the table are fanned, each card over the one before: every card's corner
// must stay readable, a ten's "10" and a joker's "Jk" whole. Each CASE (a width in pixels)
// deals a classic game whose view is given melds of tens, jokers and deuces (the page draws
// what the answer says; the snapshot is the service's) and measures, card by card, whether the
// next card of the fan covers any of its rank.
//
//   node tests/web/meld_fans.mjs BASE_URL OUT_DIR WIDTH...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": per width the cards measured
// and those covered, any problems. Screenshots of the melds go to OUT_DIR (melds-WIDTH.png).
import { newGameAtYourTurn, runTest, watch } from "./chromium.mjs";

const [base, outDir, ...widths] = process.argv.slice(2);
const problems = [];
const found = {};
const MELDS = [
  { label: "T", kind: "group", cards: ["TH", "TD", "TC", "TS", "2C", "JK"] },
  { label: "A", kind: "group", cards: ["AH", "JK", "JK", "AC"] },
  { label: "4", kind: "group", cards: ["4H", "4D", "4C", "4S", "4H", "2D"] },
];
await runTest({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" }, problems, async (context) => {
  await context.route("**/v1/deal", async (route) => {
    const response = await route.fetch();
    const dealt = await response.json();
    for (const side of dealt.views[0].sides) side.melds = MELDS;
    await route.fulfill({ response, json: dealt });
  });
  const page = context.pages()[0] ?? await context.newPage();
  watch(page, problems);
  for (const width of widths) {
    await page.setViewportSize({ width: Number(width), height: 900 });
    await newGameAtYourTurn(page, base, { variant: "classic", players: 4, seed: 5, lang: "en" });
    found[width] = await page.evaluate(() => {
      let measured = 0;
      const covered = [];
      for (const fan of document.querySelectorAll(".meld-cards")) {
        const cards = [...fan.children];
        cards.slice(0, -1).forEach((c, i) => {
          const rank = c.querySelector(".rank").getBoundingClientRect();
          const next = cards[i + 1].getBoundingClientRect();
          measured++;
          if (rank.right > next.left) covered.push(`${c.dataset.card} (${(rank.right - next.left).toFixed(1)} px)`);
        });
      }
      return { measured, covered };
    });
    await page.locator("#felt").screenshot({ path: `${outDir}/melds-${width}.png` });
  }
}, () => ({ widths: found }));
