// Walks Swagger UI at /docs the way a new developer would, in Debian's
// headless Chromium driven by playwright-core: Authorize with a bearer
// token, then "Try it out" and Execute on GET /me and GET /variants, and
// check what the page shows. Saves a screenshot of each step.
//
// Usage: node swagger.mjs BASE_URL ACCESS_TOKEN USERNAME SCREENSHOT_DIR
//
// Every request the page makes must stay on the loopback server: anything
// else is aborted and fails the walk (Swagger UI is vendored into the
// binary, so /docs works offline).
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base, token, username, shots] = process.argv.slice(2);
if (!base || !token || !username || !shots) {
  console.error("usage: node swagger.mjs BASE_URL ACCESS_TOKEN USERNAME SCREENSHOT_DIR");
  process.exit(2);
}
const STEP_MS = 15_000;
mkdirSync(shots, { recursive: true });

const profile = mkdtempSync(join(tmpdir(), "swagger-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  // Debian's chromium; swagger.sh checks that it is there.
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
  viewport: { width: 960, height: 800 },
});

const local = new URL(base);
const seen = [];
const escaped = [];
const pageErrors = [];
await context.route("**/*", (route) => {
  const url = new URL(route.request().url());
  seen.push(url.href);
  if (["data:", "blob:"].includes(url.protocol) || url.host === local.host) {
    return route.continue();
  }
  escaped.push(url.href);
  return route.abort("blockedbyclient");
});

let failed = false;
function check(condition, message) {
  if (condition) {
    console.log(`ok: ${message}`);
  } else {
    console.error(`FAILED: ${message}`);
    failed = true;
  }
}

try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(STEP_MS);
  page.on("pageerror", (error) => pageErrors.push(String(error)));

  await page.goto(`${base}/docs/`);
  await page.locator(".swagger-ui .info .title").waitFor();
  await page.locator(".opblock").first().waitFor();
  check(
    (await page.locator(".swagger-ui .info .title").innerText()).includes("Stratego"),
    "/docs shows the API's title",
  );
  await page.screenshot({ path: join(shots, "01-docs.png") });

  // Authorize: the bearer scheme's dialog takes the access token.
  await page.locator(".auth-wrapper button.authorize").click();
  const dialog = page.locator(".dialog-ux .modal-ux");
  await dialog.locator("input").first().fill(token);
  await page.screenshot({ path: join(shots, "02-authorize.png") });
  await dialog.locator(".auth-btn-wrapper button.authorize").click();
  await dialog.locator(".auth-btn-wrapper button.btn-done").waitFor();
  check(
    (await dialog.innerText()).includes("Authorized"),
    "the Authorize dialog says Authorized",
  );
  await dialog.locator(".auth-btn-wrapper button.btn-done").click();
  await dialog.waitFor({ state: "detached" });

  const me = await tryItOut(page, "accounts", "get_me", "03-get-me.png");
  check(me.status === "200", `GET /me shows 200 (shown: ${me.status})`);
  check(
    me.body.includes(`"username": "${username}"`),
    `GET /me shows the username ${username}`,
  );

  const variants = await tryItOut(page, "games", "list_variants", "04-list-variants.png");
  check(variants.status === "200", `GET /variants shows 200 (shown: ${variants.status})`);
  check(variants.body.includes(`"variant": "classic"`), "GET /variants shows the variant classic");

  check(seen.length > 0, `the page made ${seen.length} requests`);
  check(escaped.length === 0, `no request left ${local.host} (${escaped.join(", ") || "none"})`);
  check(pageErrors.length === 0, `no script error on the page (${pageErrors.join("; ") || "none"})`);
} catch (error) {
  console.error(`FAILED: ${error.message}`);
  failed = true;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`screenshots in ${shots}`);
process.exit(failed ? 1 : 0);

// Opens one operation, presses "Try it out" then Execute, and returns the
// response code and body Swagger UI shows, after a screenshot of the block.
async function tryItOut(page, tag, operationId, shot) {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  await block.locator(".opblock-summary").first().click();
  await block.locator("button.try-out__btn").click();
  await block.locator("button.execute").click();
  const response = block.locator(".live-responses-table tbody .response").first();
  await response.waitFor();
  const status = (await response.locator(".response-col_status").innerText()).trim();
  const body = await response.locator(".response-col_description pre").first().innerText();
  await block.scrollIntoViewIfNeeded();
  await block.screenshot({ path: join(shots, shot) });
  // The same block cut below the response body: small enough for the README
  // (docs/images/swagger-try-it-out.png is one of these).
  const onPage = (el) => {
    const box = el.getBoundingClientRect();
    return { x: box.x + scrollX, y: box.y + scrollY, width: box.width, bottom: box.bottom + scrollY };
  };
  const top = await block.evaluate(onPage);
  const end = await response.locator(".response-col_description pre").first().evaluate(onPage);
  await page.screenshot({
    path: join(shots, shot.replace(/\.png$/, "-answer.png")),
    fullPage: true,
    clip: { x: top.x, y: top.y, width: top.width, height: end.bottom + 12 - top.y },
  });
  return { status, body };
}
