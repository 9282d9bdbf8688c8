// The web table's modules that need no page, under node. moves.js: which selected cards
// make which listed move. A group's naturals match by rank and its wild cards by kind
// (the engine lists the lowest copies and accepts any, docs/engine.md "Canonical shapes");
// a sequence's cards, a discard and a lay-off keep their suits. i18n.js: both languages
// say the same things (the same keys, the same parameters), Russian plurals agree.
//
//   node tests/web/page_modules.mjs
//
// Run by tests/web/test_web_table.py; exits non-zero on the first failed check.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

// a data: URL is always an ES module, whatever package.json is near the file
const load = (name) => import("data:text/javascript;base64," + Buffer.from(
  readFileSync(new URL(`../../clients/web/${name}`, import.meta.url), "utf8")).toString("base64"));
const { makes, movesOf, parseMove, partOf, positionsOf } = await load("moves.js");
const { LANGUAGES, TEXT, cardName, face, meldValues, places } = await load("i18n.js");

const cards = (text) => text.split(" ");
const listed = (...texts) => texts.map(parseMove);
let checks = 0;
const check = (fn) => { fn(); checks++; };

// a group by its shape: any ten, any wild of the same kind
check(() => {
  const moves = listed("meld TH TD JK", "meld TH TD TC", "meld TH TD TC JK", "discard TC", "discard JK");
  assert.deepEqual(movesOf(cards("TC TS JK"), moves).map((m) => m.text), ["meld TH TD JK"]);
  assert.deepEqual(movesOf(cards("TD TC TH"), moves).map((m) => m.text), ["meld TH TD TC"]);
  assert.deepEqual(movesOf(cards("TC"), moves).map((m) => m.text), ["discard TC"]);
  assert.deepEqual(movesOf(cards("TH"), moves).map((m) => m.text), []); // a discard keeps its suit
});

// a joker is not a deuce; deuces stand for each other where they are wild
check(() => {
  const moves = listed("meld 8S 8S 2H", "meld 8S 8S JK");
  assert.deepEqual(movesOf(cards("8S 8H 2C"), moves).map((m) => m.text), ["meld 8S 8S 2H"]);
  assert.deepEqual(movesOf(cards("8D 8C JK"), moves).map((m) => m.text), ["meld 8S 8S JK"]);
  assert.equal(makes(cards("8S 8S 8H"), moves[0]), false);
});

// a sequence keeps its suits, also when added to by its label
check(() => {
  const [seq, add, group] = listed("meld 8H 9H TH", "add S:5-9 4S", "add 9 9S");
  assert.equal(makes(cards("8H 9H TH"), seq), true);
  assert.equal(makes(cards("8H 9H TD"), seq), false);
  assert.equal(makes(cards("4S"), add), true);
  assert.equal(makes(cards("4H"), add), false);
  assert.equal(makes(cards("9C"), group), true);
});

// taking the pile: the pair, the extra melds shown, a target; the top card alone uses none
check(() => {
  const [pair, extras, onto, plain, target] = listed("take 9S 9C / KH KD 2C", "take - / KH KD 2C",
    "take on S:5-9", "take", "take 9S 9C on 9#2");
  assert.equal(makes(cards("9H 9D KS KC 2S"), pair), true);
  assert.equal(makes(cards("9H 9D KS KC"), pair), false);
  assert.deepEqual(extras.cards, cards("KH KD 2C"));
  assert.deepEqual([onto.cards, onto.target, plain.cards], [[], "S:5-9", []]);
  assert.deepEqual([target.cards, target.target], [cards("9S 9C"), "9#2"]);
  assert.deepEqual(movesOf(cards("9S"), [onto, plain]), []);
});

// May I? has no wild deuces: a set of twos matches by rank, a run keeps its suits
check(() => {
  const [down] = listed("down 2S 2H 2D / 5H 6H 7H 8H");
  assert.equal(makes(cards("2C 2H 2D 5H 6H 7H 8H"), down, false), true);
  assert.equal(makes(cards("2C 2H 2D 5H 6H 7H 8D"), down, false), false);
  const [layoff] = listed("layoff 2:1 9D");
  assert.deepEqual([layoff.target, layoff.card, makes(cards("9D"), layoff, false)], ["2:1", "9D", true]);
});

// some of a move's cards: "select more"; never more cards or others
check(() => {
  const [meld] = listed("meld TH TD TC");
  assert.equal(partOf(cards("TS"), meld), true);
  assert.equal(partOf(cards("TS TC"), meld), true);
  assert.equal(partOf(cards("TS TC TH"), meld), false); // all of them: it makes the move
  assert.equal(partOf(cards("KS"), meld), false);
  assert.equal(partOf([], meld), false);
});

// the hint's move, found in the hand by its very codes
check(() => {
  const [meld] = listed("meld 8S 8S 2H");
  assert.deepEqual(positionsOf(meld, cards("2H 2C 8S 8S 8H")), [2, 3, 0]);
  assert.deepEqual(positionsOf(meld, cards("2C 8S 8H")), [1, -1, -1]);
});

// kinds and words: merge names two melds, the card-less moves use no card
check(() => {
  const [merge, draw, out, discard] = listed("merge K K#2", "draw", "out", "discard 4D");
  assert.deepEqual([merge.kind, merge.label, merge.target, merge.cards], ["merge", "K", "K#2", []]);
  assert.deepEqual([draw.cards, out.cards, discard.cards], [[], [], ["4D"]]);
});

// every text in both languages, a function taking as many parameters in each
check(() => {
  const shape = (value, path = "") => (typeof value === "object"
    ? Object.entries(value).flatMap(([k, v]) => shape(v, `${path}.${k}`))
    : [`${path}: ${typeof value === "function" ? `${value.length} parameters` : "text"}`]);
  assert.deepEqual(LANGUAGES, ["en", "ru"]);
  assert.deepEqual(shape(TEXT.ru).sort(), shape(TEXT.en).sort());
});

// Russian plurals of cards; faces the same in both languages, names in each
check(() => {
  const forms = [1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 111].map((n) => TEXT.ru.cards(n).split(" ")[1]);
  assert.deepEqual(forms, ["карта", "карты", "карты", "карт", "карт", "карт", "карт", "карта", "карты", "карт", "карт"]);
  assert.deepEqual([face("TH"), face("QS"), face("JK")], ["10♥", "Q♠", "Jk"]);
  assert.deepEqual([cardName("TH", "en"), cardName("QS", "ru"), cardName("JK", "ru")],
    ["ten of hearts", "дама пик", "джокер"]);
  assert.deepEqual(places(4), ["you", "west", "north", "east"]);
  for (const n of [2, 3, 4, 5, 6]) {
    assert.equal(places(n).length, n);
    for (const place of places(n)) assert.ok(TEXT.en[place] && TEXT.ru[place], place);
  }
});

// May I?'s buys left, in both languages: none left is said so, not as "0 more times"
check(() => {
  const en = [-1, 0, 1, 2, 3].map((n) => TEXT.en.rules.buys(n));
  const ru = [-1, 0, 1, 2, 3, 5, 21].map((n) => TEXT.ru.rules.buys(n));
  assert.ok(!/\b0 /.test(en[1]) && !/\b0 /.test(ru[1]), `${en[1]} / ${ru[1]}`);
  assert.match(en[2], /1 more time this/);
  assert.match(en[3], /2 more times this/);
  assert.deepEqual(ru.slice(2).map((t) => t.match(/ещё (\d+ \S+)/)[1]),
    ["1 раз", "2 раза", "3 раза", "5 раз", "21 раз"]);
});

// the Russian page speaks the client's words for cards and rules: its rules translation
// (Canasta's "свободные карты" for wild cards, "сброс", "комбинация", natural and mixed
// canastas, red threes, "секвенс" for Samba's sequences) and the service's messages
// (service/api/messages.py: "раздача", "первая выкладка", "колода"); never a second word
// for the same thing
check(() => {
  const source = readFileSync(new URL("../../clients/web/i18n.js", import.meta.url), "utf8");
  const ru = source.slice(source.indexOf("\n  ru: {")).toLowerCase();
  for (const word of ["свободн", "сброс", "комбинаци", "натуральн", "смешанн", "канаст",
    "красн", "тройк", "секвенс", "самба", "эскалера", "боливия", "раздач", "первая выкладка",
    "колод", "минимум", "заморожен", "выход", "партнёр", "контракт", "джокер", "двойк"]) {
    assert.ok(ru.includes(word), `the Russian page never says ${word}`);
  }
  for (const word of ["дикие", "диких", "дикая", "дикую", "последовательност", "резерв",
    "открытый пакет", "сочетани"]) {
    assert.ok(!ru.includes(word), `the Russian page says ${word}`);
  }
  assert.deepEqual(["S", "H", "D", "C"].map((s) => cardName(`Q${s}`, "ru")),
    ["дама пик", "дама червей", "дама бубен", "дама треф"]);
});

// the rules lines that tell of the undo and ask buttons name them as the buttons read, in
// both languages
check(() => {
  for (const lang of ["en", "ru"]) {
    for (const key of ["undo", "ask"]) {
      const button = TEXT[lang].act[key];
      assert.ok(TEXT[lang].rules[key].includes(button), `${lang}: ${TEXT[lang].rules[key]} / ${button}`);
    }
  }
});

// a card drawn unseen is "a card" in both languages, not "1 card" ("1 карту")
check(() => {
  assert.equal(TEXT.en.did.drew("West", false, 1, ""), "West drew a card");
  assert.equal(TEXT.ru.did.drew("Запад", false, 1, ""), "Запад взял из колоды карту");
  assert.equal(TEXT.ru.did.drew("Запад", false, 2, ""), "Запад взял из колоды 2 карты");
  assert.equal(TEXT.ru.did.drew("Вы", true, 1, "5♣"), "Вы взяли из колоды 5♣");
});

// what going out needs: one canasta is "a meld", two are "melds" ("комбинации"), and the
// Russian count agrees ("2 канасты", "5 канаст")
check(() => {
  assert.equal(TEXT.en.rules.goOut(1), "To go out, your side needs a canasta (a meld of seven cards or more).");
  assert.equal(TEXT.en.rules.goOut(2), "To go out, your side needs 2 canastas (melds of seven cards or more).");
  assert.equal(TEXT.ru.rules.goOut(1),
    "Для выхода вашей стороне нужно иметь канасту (комбинацию из семи и более карт).");
  assert.equal(TEXT.ru.rules.goOut(2), "Для выхода вашей стороне нужно 2 канасты (комбинации из семи и более карт).");
  assert.match(TEXT.ru.rules.goOut(5), /нужно 5 канаст \(комбинации/);
});

// the hint's line: the advised move's words after "Hint —", in lower case, so that no move
// puts a colon after the hint's ("Подсказка: Выложить: 5♠ 5♥ 5♦" read as two labels)
check(() => {
  assert.equal(TEXT.ru.hintIs(TEXT.ru.act.meld("5♠ 5♥ 5♦")), "Подсказка — выложить: 5♠ 5♥ 5♦");
  assert.equal(TEXT.en.hintIs(TEXT.en.act.takeOnto("9♥", "9")), "Hint — take the pile: 9♥ onto 9");
  for (const lang of LANGUAGES) {
    for (const [kind, act] of Object.entries(TEXT[lang].act)) {
      const words = typeof act === "function" ? act(...Array(act.length).fill("9♥")) : act;
      const line = TEXT[lang].hintIs(words);
      assert.ok((line.match(/:/g) ?? []).length <= 1 && !/: \p{Lu}/u.test(line), `${lang} ${kind}: ${line}`);
    }
  }
});

// May I? (MI-BUY-2): your buy's log line names the penalty card you drew with the discard;
// another seat's says how many it drew, unseen
check(() => {
  assert.equal(TEXT.en.did.bought("You", true, "", 1, "7♣"), "You bought the discard and drew 7♣ as a penalty");
  assert.equal(TEXT.en.did.bought("West", false, "", 1, ""), "West bought the discard and drew a penalty card");
  assert.equal(TEXT.en.did.bought("West", false, "", 2, ""), "West bought the discard and drew 2 penalty cards");
  assert.equal(TEXT.ru.did.bought("Вы", true, "", 1, "7♣"), "Вы купили карту из сброса и взяли штрафную карту 7♣");
  assert.equal(TEXT.ru.did.bought("Вы", true, "", 2, "7♣ 8♦"), "Вы купили карту из сброса и взяли штрафные карты 7♣ 8♦");
  assert.equal(TEXT.ru.did.bought("Запад", false, "", 1, ""), "Запад купил карту из сброса и взял штрафную карту");
  assert.equal(TEXT.ru.did.bought("Запад", false, "", 2, ""), "Запад купил карту из сброса и взял 2 штрафные карты");
  // the card bought, the pile's top before the buy (public, MI-BUY-2)
  assert.equal(TEXT.en.did.bought("West", false, "Q♠", 1, ""), "West bought Q♠ from the discard pile and drew a penalty card");
  assert.equal(TEXT.ru.did.bought("Запад", false, "Q♠", 1, ""), "Запад купил Q♠ из сброса и взял штрафную карту");
});

// every Russian phrase with a count: the word after the number agrees with it, in the case
// the phrase puts it in (one: 21, 101; few: 2-4, 22; many: 5-20, 25, 111); one alone is
// said without a number in some ("карту", "иметь канасту"), so it is checked below
check(() => {
  const { did, rules } = TEXT.ru;
  const phrases = {
    cards: [(n) => TEXT.ru.cards(n), "карта карты карт"],
    moreCards: [(n) => TEXT.ru.moreCards(n), "хода ходов ходов"],
    target: [(n) => TEXT.ru.target(n), "очка очков очков"],
    minimum: [(n) => rules.minimum(n), "очка очков очков"],
    goOut: [(n) => rules.goOut(n), "канаста канасты канаст"],
    wilds: [(n) => rules.wilds(n), "свободной свободных свободных"],
    sets: [(n) => rules.contract(n, 0), "группа группы групп"],
    runs: [(n) => rules.contract(0, n), "секвенс секвенса секвенсов"],
    buys: [(n) => rules.buys(n), "раз раза раз"],
    draw: [(n) => rules.draw(n), "карту карты карт"],
    drawMayI: [(n) => rules.drawMayI(n), "карту карты карт"],
    drawStock: [(n) => rules.drawStock(n), "карту карты карт"],
    drew: [(n) => did.drew("Запад", false, n, ""), "карту карты карт"],
    tookWith: [(n) => did.tookWith("Запад", false, n, "9♥ 9♦"), "карта карты карт"],
    tookOnto: [(n) => did.tookOnto("Запад", false, n, "9♥", "9"), "карта карты карт"],
    bought: [(n) => did.bought("Запад", false, "Q♠", n, ""), "штрафную штрафные штрафных"],
  };
  const FORM = { 2: 1, 3: 1, 4: 1, 22: 1, 5: 2, 11: 2, 12: 2, 14: 2, 25: 2, 111: 2, 21: 0, 101: 0 };
  for (const [name, [say, forms]] of Object.entries(phrases)) {
    for (const [n, form] of Object.entries(FORM)) {
      const text = say(Number(n));
      const word = text.match(new RegExp(`(?<!\\d)${n} ([^\\s(),.]+)`))?.[1];
      assert.equal(word, forms.split(" ")[form], `${name}(${n}): ${text}`);
    }
  }
  // a limit of one wild card (no game has it now) is said in words, as one canasta is
  assert.match(rules.wilds(1), /не больше одной свободной \(джокера или двойки\)\.$/);
  assert.match(TEXT.en.rules.wilds(1), /at most one wild card \(a joker or a deuce\)\.$/);
});

// what the cards count toward the minimum, from a table's cardPoints: entries of one meld
// value said together (Bolivia with sevens' sevens, 500 in a hand, beside 6 to 4), whole
// ranks three in a row as a range, a rank's cards of one colour by it, others by their faces;
// cards that count toward no minimum (red threes, May I?'s) unsaid
check(() => {
  const points = (cards, meld, counts = true) => ({ cards: cards.split(" "), meld, inHand: meld, countsTowardMinimum: counts });
  const whole = (ranks) => [...ranks].flatMap((r) => [..."SHDC"].map((s) => r + s)).join(" ");
  const sevens = [points("JK", 50), points(whole("A2"), 20), points(whole("KQJT98"), 10), points(whole("7"), 5),
    points(whole("654"), 5), points("3S 3C", 5, false), points("3H 3D", 0, false)];
  assert.equal(meldValues(sevens, "en"), "joker 50, ace and deuce 20, K to 8 10, 7 to 4 5");
  assert.equal(meldValues(sevens, "ru"), "джокер 50, туз и двойка 20, от короля до восьмёрки 10, от семёрки до четвёрки 5");
  const odd = [points(`${whole("QJ")} 3S 3C`, 10), points("TS TH 9D 9C", 5)];
  assert.equal(meldValues(odd, "en"), "queen, jack and black threes 10, 10♠ 10♥ and 9♦ 9♣ 5");
  assert.equal(meldValues(odd, "ru"), "дама, валет и чёрные тройки 10, 10♠ 10♥ и 9♦ 9♣ 5");
  assert.equal(meldValues([points(whole("A"), 0, false)], "en"), "");
  assert.equal(meldValues(undefined, "ru"), "");
});

console.log(`moves.js and i18n.js: ${checks} checks passed`);
