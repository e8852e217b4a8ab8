// Plays a whole game through the reference web client at /play/ in
// Debian's headless Chromium (playwright-core), as two people would: Red
// on a desktop-sized window, Blue on a phone-sized one, each in its own
// browser context. They register, Red challenges Blue, Blue accepts, both
// set up through the page (drag and drop, tray and square, a refused
// incomplete setup), they play (a battle, a refused move explained, a move
// typed with the keyboard), Red's page is reloaded mid-game and comes
// back, the server is restarted so both streams drop and reconnect, and
// Red captures Blue's flag. Checked all along: no rank Blue may not know
// is ever in Blue's page, storage or console, and no request leaves the
// loopback server. Screenshots go to SCREENSHOT_DIR.
//
// Usage: node play.mjs API_BINARY WORK_DIR SCREENSHOT_DIR
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [binary, work, shots] = process.argv.slice(2);
if (!binary || !work || !shots) {
  console.error("usage: node play.mjs API_BINARY WORK_DIR SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const STEP_MS = 15_000;
const PIECES = ["flag", "spy", "scout", "miner", "sergeant", "lieutenant", "captain", "major", "colonel", "general", "marshal", "bomb"];
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;

// --- the server, which the test stops and starts again mid-game ---------
let server = null;
async function startServer() {
  server = spawn(binary, ["serve"], {
    env: {
      ...process.env,
      JWT_SECRET: "ci-play-browser-secret-0123456789abcdef",
      BIND_ADDRESS: `127.0.0.1:${port}`,
      DATABASE_URL: `sqlite://${work}/play.db`,
      LOG_LEVEL: "warn",
      SHUTDOWN_GRACE_SECONDS: "2",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not become ready");
}
async function stopServer() {
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

let failed = false;
function check(condition, message) {
  if (condition) console.log(`ok: ${message}`);
  else {
    console.error(`FAILED: ${message}`);
    failed = true;
  }
}

await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const escaped = [];
const pageErrors = [];
const consoleLines = [];
async function player(name, options) {
  const context = await browser.newContext(options);
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (["data:", "blob:"].includes(url.protocol) || url.host === `127.0.0.1:${port}`) return route.continue();
    escaped.push(url.href);
    return route.abort("blockedbyclient");
  });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  page.on("pageerror", (error) => pageErrors.push(`${name}: ${error}`));
  page.on("console", (line) => consoleLines.push(`${name}: ${line.text()}`));
  return { name, context, page };
}

const suffix = String(Date.now()).slice(-6);
const red = await player(`red${suffix}`, { viewport: { width: 1100, height: 950 } });
const blue = await player(`blue${suffix}`, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

const cell = (p, square) => p.page.locator(`.board [data-square="${square}"]`);
const status = (p) => p.page.locator("#status");
async function waitText(locator, text) {
  await locator.filter({ hasText: text }).first().waitFor();
}
async function token(p) {
  return p.page.evaluate(() => JSON.parse(localStorage.getItem("stratego.session")).access_token);
}
async function viewOf(p, id) {
  const answer = await fetch(`${base}/api/v1/games/${id}`, { headers: { Authorization: `Bearer ${await token(p)}` } });
  return answer.json();
}

/** Nothing Blue may not know of Red's army is in Blue's page, storage or console. */
async function checkBlueKnowsNoHiddenRank(id, when) {
  const redView = await viewOf(red, id);
  const hidden = redView.board.filter((p) => p.color === "red" && !p.revealed);
  let leaks = 0;
  for (const piece of hidden) {
    const html = await cell(blue, piece.square).evaluate((el) => el.outerHTML);
    if (!html.includes("rank unknown") || PIECES.some((name) => html.includes(name))) leaks++;
  }
  check(hidden.length > 0 && leaks === 0, `${when}: Blue's page shows none of Red's ${hidden.length} unrevealed ranks`);
  const stored = await blue.page.evaluate(() => [Object.keys(localStorage), Object.keys(sessionStorage), localStorage.getItem("stratego.session")]);
  check(stored[0].join() === "stratego.session" && stored[1].length === 0 && !PIECES.some((n) => stored[2].includes(n)),
    `${when}: Blue's storage holds the session only`);
}

async function place(p, piece, square, how) {
  if (how === "drag") {
    await p.page.locator(`.tray-piece[data-piece="${piece}"]`).dragTo(cell(p, square));
  } else {
    await p.page.locator(`.tray-piece[data-piece="${piece}"]`).click();
    await cell(p, square).click();
    // The tray keeps a piece chosen while some are left: choose it off.
    if (await p.page.locator(`.tray-piece.selected`).count()) await p.page.locator(`.tray-piece.selected`).click();
  }
}

try {
  // --- register, challenge, accept ---------------------------------------
  for (const p of [red, blue]) {
    await p.page.goto(`${base}/play`);
    check(p.page.url() === `${base}/play/`, `${p.name}: /play redirects to /play/`);
    await p.page.locator("#username").fill(p.name);
    await p.page.locator("#password").fill("correct horse battery");
    await p.page.locator("#register").click();
    await p.page.locator("#games").waitFor();
  }
  await red.page.screenshot({ path: join(shots, "play-01-lobby.png") });
  await red.page.locator("#variant").selectOption("duel");
  await red.page.locator("#opponent").fill(blue.name);
  await red.page.locator("#color").selectOption("red");
  await red.page.locator("#create-game").click();
  await red.page.waitForURL(/#\/game\//);
  const id = red.page.url().split("#/game/")[1];
  check(/^[0-9a-f-]{36}$/.test(id), `Red created game ${id}`);

  const challenge = blue.page.locator(`#challenges [data-game="${id}"]`);
  await challenge.waitFor(); // arrives through Blue's event stream
  check(true, "Blue's lobby shows Red's challenge without a reload");
  await challenge.locator("button.accept").click();
  await blue.page.waitForURL(new RegExp(`#/game/${id}`));

  // --- setups ------------------------------------------------------------
  // Blue first tries an incomplete setup: every problem is listed at once.
  await blue.page.locator(".tray-piece").first().waitFor();
  await place(blue, "flag", "a8", "click");
  await blue.page.locator("#submit-setup").click();
  await blue.page.locator("#setup-problems li").nth(1).waitFor();
  const problems = await blue.page.locator("#setup-problems li").count();
  check(problems >= 5, `a refused setup lists all its problems at once (${problems})`);
  await blue.page.screenshot({ path: join(shots, "play-02-setup-refused-phone.png"), fullPage: true });
  const blueArmy = { e8: "scout", f8: "scout", d8: "marshal", c8: "general", g8: "miner", j8: "miner", b10: "spy", i10: "bomb", j10: "bomb" };
  for (const [square, piece] of Object.entries(blueArmy)) await place(blue, piece, square, "click");
  await blue.page.locator("#submit-setup").click();

  await red.page.locator(".tray-piece").first().waitFor();
  await red.page.locator("#random-setup").click();
  check((await red.page.locator(".board .piece").count()) === 10, "Random places the whole army of ten");
  await red.page.getByRole("button", { name: "Clear" }).click();
  const redArmy = { a1: "flag", b1: "bomb", a2: "bomb", c1: "spy", d1: "miner", e1: "miner", f3: "general", e3: "marshal", a3: "scout", j3: "scout" };
  let n = 0;
  for (const [square, piece] of Object.entries(redArmy)) await place(red, piece, square, n++ % 2 === 0 ? "drag" : "click");
  await red.page.screenshot({ path: join(shots, "play-03-setup.png") });
  await red.page.locator("#submit-setup").click();

  // --- play ----------------------------------------------------------------
  await waitText(status(red), "Your move");
  await waitText(status(blue), "Their move");
  await checkBlueKnowsNoHiddenRank(id, "after the setups");
  // Legal moves are highlighted from legal_moves: the scout on j3 reaches j4-j8.
  await cell(red, "j3").click();
  const targets = await red.page.locator(".board .square.target").evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  check(["j4", "j5", "j6", "j7", "j8"].every((s) => targets.includes(s)), `choosing j3 marks its moves (${targets.join(" ")})`);
  // A refused move is explained and changes nothing.
  const before = (await viewOf(red, id)).version;
  await red.page.locator("#move-input").fill("a1 a2");
  await red.page.locator("#move-input").press("Enter");
  await red.page.locator(".notice.error").waitFor();
  check((await viewOf(red, id)).version === before, `a refused move leaves the game at version ${before}`);
  // The scout attacks the miner on j8 and loses: a battle both now see.
  await cell(red, "j3").click();
  await cell(red, "j8").click();
  await waitText(status(blue), "Your move");
  await cell(red, "j8").locator(".piece.blue.revealed").waitFor();
  check((await cell(red, "j8").innerText()).trim() === "3", "Red sees the miner the battle revealed on j8");
  check((await cell(blue, "j8").getAttribute("class")).includes("last"), "Blue's board marks the last move");
  await checkBlueKnowsNoHiddenRank(id, "after a battle");
  await blue.page.screenshot({ path: join(shots, "play-04-game-phone.png"), fullPage: true });

  const phone = await blue.page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  check(phone[0] <= phone[1], `Blue's phone-sized page fits its width (${phone[0]} <= ${phone[1]})`);

  // Blue moves with the keyboard only: typed squares.
  await blue.page.locator("#move-input").fill("e8 e7");
  await blue.page.locator("#move-input").press("Enter");
  await waitText(status(red), "Your move");

  // A reload mid-game comes back to the same game and position.
  await red.page.reload();
  await waitText(status(red), "Your move");
  check((await cell(red, "e7").innerText()).trim() === "?", "after a reload Red's board is back, Blue's scout on e7 unknown");
  // The history is fetched after the view: wait for it.
  await red.page.locator("#history .moves li").nth(1).waitFor();
  check((await red.page.locator("#history .moves li").count()) === 2, "after a reload the history has both moves");
  await cell(red, "e3").click(); // Red's marshal chosen: its moves marked
  check((await red.page.locator(".board .square.target").count()) === 3, "choosing the marshal on e3 marks its three moves");
  await red.page.screenshot({ path: join(shots, "play-04-game.png") });
  await cell(red, "e3").click();

  // The server restarts: both streams drop, reconnect, and carry on.
  await stopServer();
  await red.page.locator('#game-stream[data-state="reconnecting"]').waitFor();
  await startServer();
  await red.page.locator('#game-stream[data-state="open"]').waitFor({ timeout: 30_000 });
  await blue.page.locator('#game-stream[data-state="open"]').waitFor({ timeout: 30_000 });
  check(true, "after a restart of the server both pages' streams reconnected");

  // Blue offers a draw; Red sees it through the stream and declines.
  await blue.page.locator("#offer-draw").click();
  await red.page.locator("#draw-offer").waitFor();
  await red.page.locator("#draw-offer button.secondary").click();
  await red.page.locator("#draw-offer").waitFor({ state: "detached" });
  await blue.page.locator("#offer-draw").waitFor();
  check(true, "a draw offer reaches the other page, and its decline comes back");

  // History: step back to before the battle, then to now.
  await red.page.locator("#history-start").click();
  check((await cell(red, "j3").innerText()).trim() === "2", "history at ply 0 shows Red's scout back on j3");
  await red.page.locator("#history-forward").click();
  check((await cell(red, "j3").innerText()).trim() === "" && (await cell(red, "j8").innerText()).trim() === "3"
    && (await cell(red, "e8").innerText()).trim() === "?", "history after ply 1: the battle lost, Blue's scout not yet moved");
  await red.page.locator("#history-forward").click();
  check((await red.page.locator("#history-ply").innerText()).includes("now"), "history steps forward to now");

  // Red's scout runs the open a-file and takes the flag (typed move).
  await red.page.locator("#move-input").fill("a3 a8");
  await red.page.locator("#move-input").press("Enter");
  await waitText(status(red), "you won");
  await waitText(status(blue), "you lost"); // through Blue's reconnected stream
  check(true, "the game ends with Red's flag capture on both pages");
  check(!(await red.page.locator("#move-input").isVisible()) && !(await blue.page.locator("#move-input").isVisible()),
    "a finished game offers no move input");
  await red.page.screenshot({ path: join(shots, "play-05-game-over.png") });
  await blue.page.screenshot({ path: join(shots, "play-06-game-over-phone.png"), fullPage: true });
  // A rematch: Red offers it and goes to the new game; Blue is challenged.
  await red.page.locator("#rematch").click();
  await red.page.waitForURL((url) => url.hash.startsWith("#/game/") && !url.hash.includes(id));
  const rematch = red.page.url().split("#/game/")[1];
  await blue.page.locator('a[href="#/"]').first().click();
  await blue.page.locator(`#challenges [data-game="${rematch}"]`).waitFor();
  check(true, "a rematch offered on Red's page is a challenge in Blue's lobby");

  // A finished game shows both armies to both players: only the storage is left to check.
  const stored = await blue.page.evaluate(() => Object.keys(localStorage).join());
  check(stored === "stratego.session", "at the end: Blue's storage holds the session only");

  check(escaped.length === 0, `no request left the server (${escaped.join(", ") || "none"})`);
  check(pageErrors.length === 0, `no script error on the pages (${pageErrors.join("; ") || "none"})`);
  const ranked = consoleLines.filter((line) => PIECES.some((name) => line.includes(name)));
  check(ranked.length === 0, `no rank in the pages' console (${ranked.join("; ") || "none"})`);
} catch (error) {
  console.error(`FAILED: ${error.stack ?? error}`);
  failed = true;
  for (const p of [red, blue]) await p.page.screenshot({ path: join(shots, `play-failed-${p.name.replace(/\d+$/, "")}.png`), fullPage: true }).catch(() => {});
} finally {
  await browser.close();
  await stopServer().catch(() => {});
}
console.log(`screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
