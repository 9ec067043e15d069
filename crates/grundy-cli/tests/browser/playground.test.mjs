// End-to-end tests of the web playground in headless Chromium: start
// `grundy serve` on a free port, load the page, analyze a game, and play a
// game to the end against the engine; a teacher's controls (hints hidden,
// the engine first), heaps numbered for the whole game, and a phone's width.
//
//   npm ci && GRUNDY_BIN=../../../../target/debug/grundy npm test
//
// CHROMIUM overrides the browser (default /usr/bin/chromium, Debian's);
// SCREENSHOT where the picture of the analyzed page goes (desktop); the
// pictures of a game in play and of the page on a phone go beside it, with
// -play and -phone before the extension.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const binary = process.env.GRUNDY_BIN
  ?? fileURLToPath(new URL("../../../../target/debug/grundy", import.meta.url));
let server;
let base;
let browser;

const screenshot = process.env.SCREENSHOT ?? "playground.png";
/** The path of a further picture, beside SCREENSHOT: `-phone` for a phone. */
const besideScreenshot = (suffix) => screenshot.replace(/(\.png)?$/, `-${suffix}.png`);

before(async () => {
  server = spawn(binary, ["serve", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  base = await new Promise((resolve, reject) => {
    let said = "";
    server.stderr.on("data", (chunk) => {
      said += chunk;
      const address = said.match(/http:\/\/[^/\s]+\//);
      if (address) resolve(address[0]);
    });
    server.on("exit", (code) => reject(new Error(`grundy serve exited with ${code}: ${said}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

test("the page analyzes a game: values, P-positions, period and plot", async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(base);
  await page.fill("#game", "kayles");
  await page.fill("#to", "300");
  await page.click("#analyze");
  await page.waitForFunction(() => document.querySelector("#summary").textContent.includes("0.77: g(0..=300)"));
  assert.match(await page.textContent("#summary"), /period 12, pre-period 71: PROVEN/);
  assert.equal(await page.locator("#values span").count(), 301);
  assert.equal(await page.locator("#values span.p").count(), 1, "Kayles' only P-position is 0");
  await page.waitForSelector("#plot svg");
  assert.ok(await page.locator("#plot svg circle").count() >= 301);
  await page.screenshot({ path: screenshot, fullPage: true });
  // A bad game gets one clear line, in the page's words: it names the
  // control to change (and marks it), never a command-line flag.
  await page.fill("#game", "chess");
  await page.click("#analyze");
  await page.waitForSelector("#summary .error");
  const error = await page.textContent("#summary");
  assert.match(error, /unknown game 'chess'/);
  assert.match(error, /the Game box/);
  assert.doesNotMatch(error, /--|`|grundy games|parameter/);
  assert.ok(await page.$eval("#game", (box) => box.classList.contains("invalid")));
  await page.close();
});

test("the value grid shows each heap's index: rows 0:, 10:, ... and columns 0-9", async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(base);
  await page.fill("#game", "kayles");
  await page.fill("#to", "45");
  await page.click("#analyze");
  await page.waitForFunction(() => document.querySelectorAll("#values span").length === 46);
  const rows = await page.locator("#values .index.row").allTextContents();
  assert.deepEqual(rows, ["0:", "10:", "20:", "30:", "40:"]);
  const columns = await page.locator("#values .index.column:not(.corner)").allTextContents();
  assert.deepEqual(columns, ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
  // Each value sits on its row's label and under its column's header.
  const placed = await page.evaluate(() => {
    const box = (e) => e.getBoundingClientRect();
    const rows = [...document.querySelectorAll("#values .index.row")];
    const columns = [...document.querySelectorAll("#values .index.column:not(.corner)")];
    return [...document.querySelectorAll("#values span")].map((cell) => {
      const at = box(cell);
      const row = rows.find((r) => Math.abs(box(r).top - at.top) < 2);
      const column = columns.find((c) => Math.abs(box(c).left - at.left) < 2 && Math.abs(box(c).right - at.right) < 2);
      return { heap: Number(cell.dataset.heap), title: cell.title,
        at: row && column ? parseInt(row.textContent, 10) + Number(column.textContent) : null };
    });
  });
  placed.forEach(({ heap, title, at }, n) => {
    assert.equal(heap, n);
    assert.equal(at, n, `g(${n}) is shown at heap ${at}`);
    assert.match(title, new RegExp(`^g\\(${n}\\) = \\d+$`));
  });
  // Kayles: g(23) = 7, in row 20:, column 3.
  assert.equal(await page.textContent("#values span[data-heap='23']"), "7");
  await page.close();
});

test("rules typed as a script are analyzed", async () => {
  const page = await browser.newPage();
  await page.goto(base);
  await page.click("#scripting summary");
  // Take one or two tokens: g(n) = n mod 3.
  await page.fill("#script", "fn options(n) { [n - 1, n - 2] }");
  await page.fill("#to", "30");
  await page.click("#analyze");
  await page.waitForFunction(() => document.querySelector("#summary").textContent.startsWith("script:"));
  const values = await page.locator("#values span").allTextContents();
  assert.deepEqual(values.map(Number), Array.from({ length: 31 }, (_, n) => n % 3));
});

test("a script's parameters take the values of the Parameters box", async () => {
  const page = await browser.newPage();
  await page.goto(base);
  await page.click("#scripting summary");
  // Take 1 to K tokens: g(n) = n mod (K + 1).
  await page.fill("#script", "const K = 2; fn options(n) { let out = []; for k in 1..=K { out.push(n - k); } out }");
  await page.fill("#defines", "K=4");
  await page.fill("#to", "30");
  await page.click("#analyze");
  await page.waitForFunction(() => document.querySelector("#summary").textContent.startsWith("script(K=4):"));
  const values = await page.locator("#values span").allTextContents();
  assert.deepEqual(values.map(Number), Array.from({ length: 31 }, (_, n) => n % 5));
  // A value that is no integer names the box and marks it.
  await page.fill("#defines", "K=x");
  await page.click("#analyze");
  await page.waitForFunction(() => document.querySelector("#summary").textContent.includes("invalid define"));
  assert.match(await page.textContent("#summary"), /the Parameters box/);
  assert.equal(await page.getAttribute("#defines", "aria-invalid"), "true");
  await page.close();
});

test("the count form shows the report grundy count prints, and its refusals", async () => {
  const page = await browser.newPage();
  await page.goto(base);
  await page.fill("#game", "sub(1,2)");
  await page.fill("#count-to", "1e18");
  await page.fill("#count-formula", "n mod 3");
  await page.click("#count");
  await page.waitForSelector("#counted pre");
  const counted = await page.textContent("#counted");
  assert.match(counted, /heaps 1..=1000000000000000000/);
  assert.match(counted, /by the formula g\(n\) = n mod 3 \(PROVEN/);
  assert.match(counted, /P-positions \(value 0\): 333333333333333333;/);
  // Two heaps of 0..=2, unordered: {0,0} {1,1} {2,2} of nim-sum 0 among 6.
  await page.fill("#count-from", "0");
  await page.fill("#count-to", "2");
  await page.fill("#count-heaps", "2");
  await page.fill("#count-formula", "");
  await page.selectOption("#count-order", "unordered");
  await page.click("#count");
  await page.waitForFunction(() => document.querySelector("#counted").textContent.includes("unordered"));
  assert.match(await page.textContent("#counted"), /: 6\n[^]*P-positions[^:]*: 3\n/);
  // A wrong formula is one clear line naming the heap where it fails.
  await page.fill("#count-heaps", "");
  await page.fill("#count-to", "1e18");
  await page.fill("#count-formula", "n mod 4");
  await page.click("#count");
  await page.waitForSelector("#counted .error");
  assert.match(await page.textContent("#counted"), /fails at heap 3/);
});

test("the moves form lists every heap's winning moves, coins and a script's tuples", async () => {
  const page = await browser.newPage();
  await page.goto(base);
  await page.fill("#game", "sub(1,3,4)");
  await page.fill("#moves-to", "3");
  await page.click("#moves");
  await page.waitForSelector("#moved pre");
  const table = await page.textContent("#moved");
  assert.match(table, /sub\(1,3,4\), heaps 0..=3: 3 winning moves/);
  // Heap 3: value 1, two winning moves, taking 1 (to 2) or 3 (to 0).
  assert.match(table, /\n3\s+1\s+2\s+1\s+3\n/);
  // A listing past the page's limit names the box that avoids it.
  await page.fill("#moves-to", "1e6");
  await page.click("#moves");
  await page.waitForSelector("#moved .error");
  const refused = await page.textContent("#moved .error");
  assert.match(refused, /the 'counts by value only' box/);
  assert.doesNotMatch(refused, /--|\(parameter /);
  // Counted by value through the proven period.
  await page.fill("#game", "0.137");
  await page.fill("#moves-from", "1");
  await page.fill("#moves-to", "1e12");
  await page.check("#moves-by-value");
  await page.click("#moves");
  await page.waitForFunction(() => document.querySelector("#moved").textContent.includes("proven period 34"));
  // A lone head on every coin of a grid.
  await page.uncheck("#moves-by-value");
  await page.fill("#game", "turtles*turtles");
  await page.fill("#moves-from", "0");
  await page.fill("#moves-to", "2");
  await page.click("#moves");
  await page.waitForFunction(() => document.querySelector("#moved").textContent.includes("each coin (x, y)"));
  // A script's tuples: two-heap Nim from [1,2].
  await page.click("#scripting summary");
  await page.fill("#script", "fn options(p) { let out = []; for k in 1..=p[0] { out.push([p[0] - k, p[1]]); } "
    + "for k in 1..=p[1] { out.push([p[0], p[1] - k]); } out }");
  await page.fill("#moves-position", "[1,2]");
  await page.click("#moves");
  await page.waitForFunction(() => document.querySelector("#moved").textContent.includes("reachable from [1, 2]"));
  // [1, 1] is lost; from [1, 2] (worth 1 ^ 2 = 3) the one winning move leads there.
  assert.match(await page.textContent("#moved"), /\[1, 1\]\s+0\s+0\s+-\n\[1, 2\]\s+3\s+1\s+\[1, 1\]\n/);
  await page.close();
});

test("the game list offers what Analyze answers; the sum panel plays any kinds", async () => {
  const page = await browser.newPage();
  await page.goto(base);
  await page.waitForFunction(() => document.querySelectorAll("#games option").length > 5);
  const offered = await page.$$eval("#games option", (options) => options.map((o) => o.value));
  for (const refused of ["wythoff", "mock-turtles", "ruler*ruler", "(()())", "fibonacci-nim"]) {
    assert.ok(!offered.includes(refused), `${refused} is offered to Analyze`);
  }
  assert.ok(!offered.some((o) => o.startsWith("graph:") || o.startsWith("maze:") || o.endsWith(".rhai")));
  const examples = await page.$$eval("#components-examples option", (options) => options.map((o) => o.value));
  assert.ok(examples.includes("wythoff:1,3") && examples.includes("(()())"), examples.join(" "));
  // Every example the sum panel offers is answered.
  for (const example of examples) {
    await page.$eval("#summed", (shown) => { shown.innerHTML = ""; });
    await page.fill("#components", example);
    await page.click("#sum");
    await page.waitForFunction(() => document.querySelector("#summed").textContent !== "");
    assert.equal(await page.locator("#summed .error").count(), 0, example);
  }
  await page.$eval("#summed", (shown) => { shown.innerHTML = ""; });
  await page.fill("#components", "kayles:3 wythoff:1,3 (()()) ruler:3,4,6");
  await page.click("#sum");
  await page.waitForFunction(() => document.querySelector("#summed").textContent.includes("winning move"));
  assert.match(await page.textContent("#summed"), /g\(wythoff:1,3\) = 4/);
  assert.match(await page.textContent("#summed"), /nim-sum 1: the player to move wins/);
  await page.fill("#components", "fibonacci-nim:3");
  await page.click("#sum");
  await page.waitForSelector("#summed .error");
  await page.close();
});

test("a game of Nim is played to the end against the engine", async () => {
  const page = await browser.newPage();
  await page.goto(base);
  await page.fill("#game", "nim");
  await page.fill("#heaps", "1 2 3"); // nim-sum 0: the player to move loses
  await page.click("#start");
  await page.waitForSelector("#board .heap");
  assert.match(await page.textContent("#status"), /Nim-sum 0: the player to move loses/);
  assert.match(await page.textContent("#board"), /value 3 = mex\{0, 1, 2\}/);
  for (let turn = 0; turn < 10; turn += 1) {
    if (/last move/.test(await page.textContent("#status"))) break;
    const logged = await page.locator("#log li").count();
    await page.locator("#board button.option").first().click();
    await page.waitForFunction((n) => document.querySelectorAll("#log li").length > n, logged);
  }
  assert.match(await page.textContent("#status"), /The engine made the last move: it wins/);
  assert.match(await page.textContent("#log"), /Engine: heap/);
});

/** The board as shown: each heap's number and tokens (null: gone). */
async function board(page) {
  return page.$$eval("#board .heap", (boxes) => Object.fromEntries(boxes.map((box) => [
    box.dataset.heap,
    box.classList.contains("gone") ? null : Number(box.querySelector(".name").textContent.match(/: (\d+) token/)[1]),
  ])));
}

/** The moves of the log, in the board's numbers: who, heap, from, to, and the heaps a split left. */
async function moves(page) {
  const lines = await page.locator("#log li").allTextContents();
  return lines.filter((line) => /^(You|Engine): /.test(line)).map((line) => {
    const m = line.match(/^(You|Engine): heap (\d+): (\d+) → (nothing|\d+(?: \+ \d+)*)(?: \(heaps? ([\d, and]+)\))?[,.]/);
    assert.ok(m, `a move in the log: ${line}`);
    return {
      who: m[1], heap: m[2], from: Number(m[3]),
      to: m[4] === "nothing" ? [] : m[4].split(" + ").map(Number),
      labels: m[5] ? m[5].split(/, | and /) : [],
    };
  });
}

/** The board `shown` after the logged `move`: what the log's numbers say it must be. */
function afterMove(shown, move) {
  const next = { ...shown };
  assert.equal(shown[move.heap], move.from, `heap ${move.heap} had ${move.from} tokens`);
  if (move.to.length === 1) {
    next[move.heap] = move.to[0];
  } else {
    next[move.heap] = null;
    move.labels.forEach((label, i) => {
      assert.ok(!(label in shown), `a split's heap gets a new number, not ${label}`);
      next[label] = move.to[i];
    });
  }
  return next;
}

/** Plays the first option of heap `label` whose text matches `option`, and waits for the answer. */
async function playOn(page, label, option) {
  const logged = await page.locator("#log li").count();
  await page.locator(`#board .heap[data-heap='${label}'] button.option`, { hasText: option }).first().click();
  await page.waitForFunction((n) => document.querySelectorAll("#log li").length > n, logged);
}

test("heaps keep their numbers for the whole game; the log uses the board's numbers", async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(base);
  await page.fill("#game", "kayles");
  await page.fill("#heaps", "2 7 9 10");
  await page.click("#start");
  await page.waitForSelector("#board .heap");
  let shown = await board(page);
  assert.deepEqual(shown, { 1: 2, 2: 7, 3: 9, 4: 10 });
  // Heap 1 taken whole: it is shown empty, and no other heap is renumbered.
  await playOn(page, 1, /^→ nothing/);
  let played = await moves(page);
  assert.deepEqual(played[0], { who: "You", heap: "1", from: 2, to: [], labels: [] });
  for (const move of played) shown = afterMove(shown, move);
  assert.deepEqual(await board(page), shown);
  assert.match(await page.textContent("#board .heap[data-heap='1']"), /Heap 1: empty/);
  // A split of heap 4: its heaps get new numbers; the others keep theirs.
  const live = Object.keys(shown).filter((label) => shown[label] !== null && shown[label] >= 5);
  const split = live[live.length - 1];
  await playOn(page, split, /^→ \d+\+\d+/);
  played = (await moves(page)).slice(played.length);
  assert.equal(played[0].who, "You");
  assert.equal(played[0].heap, split);
  assert.equal(played[0].to.length, 2);
  assert.ok(played[0].labels.every((label) => Number(label) > 4), played[0].labels.join(" "));
  for (const move of played) shown = afterMove(shown, move);
  assert.deepEqual(await board(page), shown);
  assert.match(await page.textContent(`#board .heap[data-heap='${split}']`), new RegExp(`Heap ${split}: split into heaps \\d+ and \\d+`));
  await page.screenshot({ path: besideScreenshot("play"), fullPage: true });
  // On to the end: the board always agrees with the log.
  for (let turn = 0; turn < 20 && !/last move/.test(await page.textContent("#status")); turn += 1) {
    const before = (await moves(page)).length;
    const label = await page.$eval("#board .heap:not(.gone) button.option", (b) => b.closest(".heap").dataset.heap);
    await playOn(page, label, /./);
    for (const move of (await moves(page)).slice(before)) shown = afterMove(shown, move);
    assert.deepEqual(await board(page), shown);
  }
  assert.match(await page.textContent("#status"), /last move/);
  await page.close();
});

test("hints can be hidden during play, and shown again", async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(base);
  await page.fill("#game", "kayles");
  await page.fill("#heaps", "3 5 7"); // values 3, 4, 2: nim-sum 5, won
  await page.click("#start");
  await page.waitForSelector("#board .heap");
  const shown = async () => (await page.innerText("#status")) + (await page.innerText("#board")) + (await page.innerText("#log"));
  const answers = /value|mex|nim-sum|✓|\(\d+\)/i;
  assert.match(await shown(), /Nim-sum 5: the player to move wins/);
  assert.match(await shown(), /value 4 = mex\{/);
  assert.ok(await page.locator("#board button.wins").count() > 0);
  const style = (selector) => page.$eval(selector, (b) => {
    const s = getComputedStyle(b);
    return [s.borderColor, s.backgroundColor, s.boxShadow].join(" ");
  });
  assert.notEqual(await style("#board button.wins"), await style("#board button:not(.wins)"), "winning moves are marked");
  await page.waitForSelector("#values span");

  await page.uncheck("#hints");
  assert.doesNotMatch(await shown(), answers);
  assert.equal(await page.locator("#play .hint:visible").count(), 0);
  assert.equal(await style("#board button.wins"), await style("#board button:not(.wins)"), "no mark shows the winning moves");
  assert.equal(await page.locator("#values span:visible").count(), 0, "the analysis' values are hidden too");
  assert.match(await page.innerText("#status"), /Your move/);
  // A move played with hints hidden: the log says what was played, not its nim-sum.
  const logged = await page.locator("#log li").count();
  await page.locator("#board button.option").first().click();
  await page.waitForFunction((n) => document.querySelectorAll("#log li").length > n, logged);
  assert.match(await page.innerText("#log"), /You: heap \d+: \d+ → /);
  assert.doesNotMatch(await shown(), answers);

  await page.check("#hints");
  assert.match(await shown(), /Nim-sum \d+: the player to move/);
  assert.match(await shown(), /value \d+ = mex\{/);
  assert.match(await page.innerText("#log"), /leaving nim-sum/);
  assert.ok(await page.locator("#play .hint:visible").count() > 0);
  assert.ok(await page.locator("#values span:visible").count() > 0);
  await page.close();
});

test("the engine can move first: at once, and to a P-position when it can", async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(base);
  await page.fill("#game", "kayles");
  await page.fill("#heaps", "3 5 7"); // nim-sum 5: an N-position, won by the engine
  await page.selectOption("#first", "engine");
  await page.click("#start");
  await page.waitForFunction(() => /Engine: heap/.test(document.querySelector("#log").textContent));
  await page.waitForSelector("#board button.option");
  const log = await page.locator("#log li").allTextContents();
  assert.equal(log.filter((line) => line.startsWith("You:")).length, 0, "the engine moved before the user");
  assert.equal(log.filter((line) => line.startsWith("Engine:")).length, 1);
  // The user faces nim-sum 0, as the page says and the server confirms.
  assert.match(await page.innerText("#status"), /Nim-sum 0: the player to move loses/);
  const heaps = Object.values(await board(page)).filter((h) => h !== null);
  const checked = await page.evaluate(async (heaps) => {
    const response = await fetch("/api/position", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: "kayles", heaps }),
    });
    return response.json();
  }, heaps);
  assert.equal(checked.nim_sum, 0, `after the engine's move ${heaps.join(" ")} is a P-position`);
  // From a P-position the engine has no winning move, and moves anyway.
  await page.fill("#game", "nim");
  await page.fill("#heaps", "1 2 3");
  await page.click("#start");
  await page.waitForFunction(() => /Engine: heap/.test(document.querySelector("#log").textContent));
  await page.waitForSelector("#board button.option");
  assert.doesNotMatch(await page.innerText("#status"), /Nim-sum 0/);
  await page.close();
});

test("on a phone (375 px) nothing spills over: the forms and the script box stack", async () => {
  const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
  await page.goto(base);
  await page.waitForSelector("#values span");
  await page.waitForSelector("#plot svg");
  await page.click("#scripting summary");
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const inside = (selector) => page.$$eval(selector, (elements) => elements
    .filter((e) => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; })
    .map((e) => e.id || e.tagName));
  assert.ok(await fits(), "the analysis fits");
  assert.deepEqual(await inside("#count-form input, #count-form select, #count-form button, #script, #components, #heaps, #game"), []);
  // The count form stacks: its boxes sit on rows of their own.
  const tops = await page.$$eval("#count-from, #count-to, #count-heaps, #count-mod", (boxes) => boxes.map((b) => b.getBoundingClientRect().top));
  assert.equal(new Set(tops.map(Math.round)).size, 4, `count boxes at ${tops.join(" ")}`);
  const script = await page.$eval("#script", (s) => s.getBoundingClientRect().width);
  assert.ok(script > 250 && script <= 375, `the script box is ${script} px wide`);
  // Each view, answered: still no spill.
  await page.fill("#count-to", "1e18");
  await page.fill("#count-heaps", "3");
  await page.selectOption("#count-order", "unordered");
  await page.check("#count-all");
  await page.click("#count");
  await page.waitForSelector("#counted pre");
  assert.ok(await fits(), "the count fits");
  await page.click("#sum");
  await page.waitForSelector("#summed pre");
  assert.ok(await fits(), "the sum fits");
  await page.fill("#heaps", "3 5 7 9");
  await page.click("#start");
  await page.waitForSelector("#board button.option");
  await playOn(page, 4, /\+/);
  assert.ok(await fits(), "the game fits");
  await page.fill("#game", "a-game-with-a-rather-long-name-that-is-unknown");
  await page.click("#analyze");
  await page.waitForSelector("#summary .error");
  assert.ok(await fits(), "an error fits");
  await page.screenshot({ path: besideScreenshot("phone"), fullPage: true });
  await page.close();
});

test("errors name the page's controls, never command-line flags", async () => {
  const page = await browser.newPage();
  await page.goto(base);
  const error = async (button, shownIn) => {
    await page.$eval(shownIn, (e) => { e.textContent = ""; });
    await page.click(button);
    await page.waitForSelector(`${shownIn} .error`);
    const text = await page.textContent(`${shownIn} .error`);
    assert.doesNotMatch(text, /--|`|\(parameter |grundy games/, text);
    return text;
  };
  await page.fill("#game", "wythoff");
  assert.match(await error("#analyze", "#summary"), /the Game box/);
  await page.fill("#game", "kayles");
  await page.fill("#to", "1000000");
  assert.match(await error("#analyze", "#summary"), /the 'Heaps up to' box/);
  assert.ok(await page.$eval("#to", (box) => box.classList.contains("invalid")));
  await page.fill("#to", "30");
  await page.fill("#count-to", "10");
  await page.fill("#count-heaps", "3");
  await page.fill("#count-mod", "0");
  assert.match(await error("#count", "#counted"), /the Modulo box/);
  assert.ok(await page.$eval("#count-mod", (box) => box.classList.contains("invalid")));
  await page.fill("#count-mod", "");
  await page.fill("#count-to", "abc");
  assert.match(await error("#count", "#counted"), /the count form's 'to' box/);
  await page.fill("#game", "nim");
  await page.fill("#count-to", "1e18");
  await page.selectOption("#count-order", "distinct");
  assert.match(await error("#count", "#counted"), /the 'By formula' box/);
  await page.fill("#game", "chess");
  assert.match(await error("#start", "#board"), /the Game box/);
  await page.fill("#game", "kayles");
  await page.fill("#heaps", "3 5000");
  assert.match(await error("#start", "#board"), /the Heaps box of Play/);
  await page.fill("#components", "kayles:x");
  assert.match(await error("#sum", "#summed"), /the Components box/);
  await page.close();
});
