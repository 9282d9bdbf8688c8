// The new game's rule options: the form's "Rule options" offers the chosen game's options as
// GET /v1/variants lists them, and Deal sends those changed. Each CASE ("kind:lang") opens the
// table on a game, sets options in the form (the fields found by their option's name), presses
// "New game" and reads what the page sent and shows:
//
//   target    classic for four, target_score 2500: the line under the scores
//   rotation  classic for six, p6_mode rotation: the seats that sit the first hand out
//   refused   classic for four, penalties on and target_score 0 (below its minimum of 1): the
//             form marks the option the refusal names (its field, options.target_score), tells the
//             service's refusal, no game is dealt; then the language is switched, and back,
//             then the player count typed (2) and left, then (refused again) the game (Bolivia)
//   preset    May I? for four opened with ?opt.schedule=classic7: the form's field, and the deal
//   draw      classic for two, p2_draw_count 3: the rules panel at your first draw
//   buys      May I? for three, max_buys_per_deal "all" (a word it does not take): the refusal
//             told in the form
//
//   node tests/web/rule_options.mjs BASE_URL CASE...
//
// Run by tests/web/test_web_table.py. Prints "RESULT {json}": what each case read, any problems.
import { runTest, watch } from "./chromium.mjs";

const [base, ...cases] = process.argv.slice(2);
const problems = [];
const found = {};
let deals = []; // each deal the page asked for: { options, status }

// (`read`: the options whose fields and labels are read: those set, and one the page has no
// Russian line of doc for)
const SETUPS = {
  target: { variant: "classic", players: 4, set: { target_score: "2500" }, read: ["target_score", "penalties", "black_three_freezes"] },
  rotation: { variant: "classic", players: 6, set: { p6_mode: "rotation" }, read: ["p6_mode", "black_three_freezes"] },
  refused: { variant: "classic", players: 4, set: { penalties: "true", target_score: "0" }, read: ["target_score", "penalties"] },
  preset: { variant: "may_i", players: 4, set: {}, url: "&opt.schedule=classic7", read: ["schedule", "ace_wrap"] },
  draw: { variant: "classic", players: 2, set: { p2_draw_count: "3" }, read: ["p2_draw_count"] },
  buys: { variant: "may_i", players: 3, set: { max_buys_per_deal: "all" }, read: ["max_buys_per_deal"] },
};

// Sets an option's field as a player does: a checkbox clicked, a choice chosen, a number typed.
async function setOption(page, name, value) {
  const field = page.locator(`#options [data-option='${name}']`);
  const tag = await field.evaluate((f) => (f.type === "checkbox" ? "checkbox" : f.tagName.toLowerCase()));
  if (tag === "select") await field.selectOption(value);
  else if (tag === "checkbox") await field.setChecked(value === "true");
  else await field.fill(value);
}

// What the form's options say: the box open, the fields' values (of the options `read`), the
// error under them; the page's error line, the table, the status.
const readForm = (page, read) => page.evaluate((read) => {
  const box = document.querySelector("#options-box");
  const error = document.querySelector("#options-error");
  const fields = [...document.querySelectorAll("#options [data-option]")];
  return {
    open: box.open,
    summary: box.querySelector("summary").textContent,
    fields: fields.length,
    values: Object.fromEntries(fields.filter((f) => read.includes(f.dataset.option))
      .map((f) => [f.dataset.option, f.type === "checkbox" ? String(f.checked) : f.value])),
    invalid: fields.filter((f) => f.getAttribute("aria-invalid") === "true").map((f) => f.dataset.option),
    error: error.hidden ? null : {
      message: error.querySelector("span").textContent,
      reason: error.querySelector("code").textContent,
      takes: error.querySelector(".takes")?.textContent ?? "",
    },
    pageError: document.querySelector("#error").hidden ? null : document.querySelector("#error").textContent,
    board: !document.querySelector("#board").hidden,
    state: document.querySelector("#status").dataset.state,
  };
}, read);

// The labels of the options `read`: each one's name, its line of doc and that line's language
// ("" the page's).
const labels = (page, read) => page.$$eval("#options [data-option]", (fields, read) => Object.fromEntries(fields
  .filter((f) => read.includes(f.dataset.option)).map((f) => {
    const label = f.closest("label");
    const doc = label.querySelector(".doc");
    return [f.dataset.option, { name: label.querySelector("code").textContent, doc: doc.textContent, lang: doc.lang }];
  })), read);

// Each text field's input mode (a phone's keyboard), by option.
const inputModes = (page) => page.$$eval("#options input[type=text][data-option]", (fields) => Object.fromEntries(
  fields.map((f) => [f.dataset.option, f.inputMode])));

await runTest({ viewport: { width: 1280, height: 900 } }, problems, async (context) => {
  context.on("response", async (resp) => {
    if (!resp.url().endsWith("/v1/deal")) return;
    const body = JSON.parse(resp.request().postData() ?? "{}");
    deals.push({ options: body.options ?? null, status: resp.status() });
  });
  const page = await context.newPage();
  watch(page, problems, (text) => /status of 400/.test(text)); // (the refused deals)
  for (const name of cases) {
    const [kind, lang] = name.split(":");
    const setup = SETUPS[kind];
    deals = [];
    await page.goto(`${base}/play?variant=${setup.variant}&players=${setup.players}&seed=5&bot=greedy&delay=0`
      + `&lang=${lang}${setup.url ?? ""}`);
    await page.waitForSelector("body[data-ready=true]");
    const before = await readForm(page, setup.read);
    await page.click("#options-box summary");
    for (const [option, value] of Object.entries(setup.set)) await setOption(page, option, value);
    const seen = { before, labels: await labels(page, setup.read), modes: await inputModes(page) };
    await page.click("#new-game");
    if (kind === "refused") {
      await page.waitForSelector("#options-error:not([hidden])", { timeout: 30_000 });
      await page.waitForSelector("#status[data-state=idle]");
      seen.after = await readForm(page, setup.read);
      const other = lang === "en" ? "ru" : "en";
      const said = seen.after.error.message;
      await page.click(`button.lang[data-lang=${other}]`);
      await page.waitForFunction((old) => document.querySelector("#options-error span")?.textContent !== old, said);
      seen.switched = await readForm(page, setup.read);
      await page.click(`button.lang[data-lang=${lang}]`);
      await page.waitForFunction((to) => document.documentElement.lang === to, lang);
      seen.back = await readForm(page, setup.read);
      // another player count (typed, then left), then, refused again, another game with a
      // target_score of its own: the refusal told is gone
      await page.fill("#players", "2");
      seen.typing = await readForm(page, setup.read);
      await page.press("#players", "Tab");
      seen.players = await readForm(page, setup.read);
      await page.click("#new-game");
      await page.waitForSelector("#options-error:not([hidden])", { timeout: 30_000 });
      await page.waitForSelector("#status[data-state=idle]");
      await page.selectOption("#variant", "bolivia");
      seen.game = await readForm(page, setup.read);
    } else if (kind === "buys") {
      await page.waitForSelector("#options-error:not([hidden])", { timeout: 30_000 });
      seen.after = await readForm(page, setup.read);
    } else {
      await page.waitForSelector("#status[data-state=your-turn]", { timeout: 30_000 });
      seen.after = await readForm(page, setup.read);
      seen.target = await page.$eval("#target", (el) => el.textContent);
      seen.out = await page.$$eval(".seat.out", (boxes) => boxes.map((b) => Number(b.dataset.seat)));
      seen.rules = await page.$$eval("#rules li", (items) => items.map((li) => li.textContent));
    }
    seen.deals = deals;
    found[name] = seen;
    await page.evaluate(() => sessionStorage.clear());
  }
}, () => ({ cases: found }));
