// End-to-end tests of the web playground in headless Chromium: start
// `grundy serve` on a free port, load the page, analyze a game, and play a
// game to the end against the engine.
//
//   npm ci && GRUNDY_BIN=../../../../target/debug/grundy npm test
//
// CHROMIUM overrides the browser (default /usr/bin/chromium, Debian's);
// SCREENSHOT where the picture of the analyzed page goes.
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
  await page.screenshot({ path: process.env.SCREENSHOT ?? "playground.png", fullPage: true });
  // A bad game gets one clear line.
  await page.fill("#game", "chess");
  await page.click("#analyze");
  await page.waitForSelector("#summary .error");
  assert.match(await page.textContent("#summary"), /unknown game 'chess'/);
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
