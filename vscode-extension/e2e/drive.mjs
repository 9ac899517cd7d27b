// Drives code-server (the real VS Code workbench) with playwright-core and Debian's headless
// chromium through the user's story: open a run with seeded faults, see the problems and the
// status bar, hover a citation, apply a quick fix, convert a file. Screenshots of each step
// go to $CITELENS_E2E_ARTIFACTS. Exit code 0 only if every step passed.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extensionLog, openBrowser, quickOpen as openByName } from "./workbench.mjs";

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
const { ctx, page } = await openBrowser(profile);
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

const quickOpen = (file) => openByName(page, file);

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

/** Type a filter into the Problems panel (workspace diagnostics list every run of the
 * workspace, so a file's rows may be scrolled out of the rendered list). */
async function filterProblems(text) {
  const filter = page.getByPlaceholder(/^Filter \(e\.g\./).first();
  await filter.waitFor({ state: "visible", timeout: 10000 });
  await filter.fill(text);
  await page.waitForTimeout(500);
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

/** Wait until the status bar names `spec` (the one the server says is in force for the active file). */
async function statusSays(spec, timeout = 15000) {
  const deadline = Date.now() + timeout;
  let text = "";
  while (Date.now() < deadline) {
    text = (await statusItem().innerText().catch(() => "")).replace(/\s+/g, " ").trim();
    if (text.split(" ").includes(spec)) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`the status bar says ${JSON.stringify(text)}; want the spec ${spec}`);
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
    if (process.env.CITELENS_E2E_FRESH !== "1") {
      log("skipped: CITELENS_E2E_PYTHON has CiteLens already");
      return;
    }
    const toast = page.locator('.notification-toast:has-text("CiteLens is not installed")').first();
    await toast.waitFor({ timeout: 60000 });
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
    await filterProblems(`**/${RUN}`);
    const deadline = Date.now() + 20000;
    // each finding on its own row, at the CLI's line and column (ASCII before every one
    // of them in this sample, so UTF-16 columns equal the CLI's code-point columns)
    const listed = (rows, f) => rows.some((r) => r.includes(f.message) && r.includes(`[Ln ${f.line}, Col ${f.column}]`));
    let missing = expected;
    while (Date.now() < deadline) {
      const rows = await problemRows();
      missing = expected.filter((f) => !listed(rows, f));
      if (!missing.length) break;
      await page.waitForTimeout(300);
    }
    await page.waitForTimeout(300);
    await shot("01-problems");
    await filterProblems("");
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

  await step("hover over a citation shows the cited document and its evidence", async () => {
    await quickOpen("run1.jsonl");
    const text = readFileSync(join(WS, "kiddie", "run1.jsonl"), "utf8").split("\n")[0];
    const at = text.indexOf('["Chlorophyll"]') + 3; // inside the doc id string
    await gotoPosition(1, at);
    await page.waitForTimeout(500);
    const deadline = Date.now() + 30000;
    let hover = "";
    while (Date.now() < deadline) {
      await page.keyboard.press("Control+K");
      await page.keyboard.press("Control+I");
      const widget = page.locator(".monaco-hover:visible").first();
      if (await widget.waitFor({ timeout: 3000 }).then(() => true, () => false)) {
        hover = await widget.innerText();
        if (/Chlorophyll/.test(hover) && /supported|partial/i.test(hover)) break;
      }
      await page.keyboard.press("Escape");
      await page.waitForTimeout(500);
    }
    await page.waitForTimeout(800); // the hover fades in
    await shot("03-hover-evidence");
    log("hover:", JSON.stringify(hover.slice(0, 300)));
    if (!/Chlorophyll/.test(hover)) throw new Error(`no document in the hover: ${JSON.stringify(hover.slice(0, 200))}`);
    if (!/supported|partial/i.test(hover)) throw new Error(`no verdict in the hover: ${JSON.stringify(hover.slice(0, 200))}`);
    const marked = await page.locator(".monaco-hover:visible strong").allInnerTexts();
    if (!marked.some((m) => /green|pigment|chlorophyll/i.test(m))) throw new Error(`no matched words marked: ${JSON.stringify(marked)}`);
    await page.keyboard.press("Escape");
  });

  await step("Show Cited Document opens the cited document read-only", async () => {
    // the cursor is still on the "Chlorophyll" citation of run1.jsonl
    await runCommand("CiteLens: Show Cited Document");
    const tab = page.locator('.tab.active:has-text("Chlorophyll.txt")');
    await tab.waitFor({ timeout: 15000 });
    await page.waitForTimeout(500);
    const shown = (await page.locator(".editor-group-container.active .view-lines").innerText()).replace(/\s+/g, " ");
    await shot("03b-cited-document");
    if (!shown.includes("green pigment found in plants")) throw new Error(`the cited document is not shown: ${shown.slice(0, 200)}`);
    await page.keyboard.press("Control+W");
  });

  await step("Go to Definition on a citation selects the evidence in the cited document", async () => {
    // the oracle: the support judge's evidence for run1's first citation (CLI, --support)
    const support = JSON.parse(readFileSync(process.env.CITELENS_E2E_SUPPORT, "utf8")).support[0];
    const cited = support.reports[0].sentences[0].citations[0];
    const pieces = cited.evidence;
    if (cited.doc_id !== "Chlorophyll" || !pieces.length) throw new Error(`unexpected oracle: ${JSON.stringify(cited)}`);
    const line = readFileSync(join(WS, "kiddie", "run1.jsonl"), "utf8").split("\n")[0];
    const report = JSON.parse(line);
    const literal = line.indexOf(JSON.stringify(report.documents.Chlorophyll.text)); // ASCII, no escapes
    const first = literal + 1 + pieces[0].start + 1; // 1-based columns of the evidence in the run
    const last = literal + 1 + pieces[pieces.length - 1].end + 1;
    await quickOpen("run1.jsonl");
    await gotoPosition(1, line.indexOf('["Chlorophyll"]') + 3);
    await page.keyboard.press("F12");
    const status = page.locator('[id="status.editor.selection"]').first();
    const want = `(${last - first} selected)`;
    const deadline = Date.now() + 20000;
    let said = "";
    while (Date.now() < deadline) {
      said = (await status.innerText().catch(() => "")).trim();
      if (said.includes(want)) break;
      await page.waitForTimeout(300);
    }
    await shot("03c-definition-evidence");
    log("after F12:", JSON.stringify(said), "want", want, "from column", first);
    const col = Number(/Col (\d+)/.exec(said)?.[1]);
    if (!said.includes(want) || (col !== first && col !== last)) {
      throw new Error(`the selection is ${JSON.stringify(said)}; want columns ${first}-${last} ${want}`);
    }
  });

  await step("a quick fix applies and its finding disappears", async () => {
    const target = expected.find((f) => f.code === "narrative");
    if (!target) throw new Error("the sample has no narrative finding to fix");
    await quickOpen(RUN);
    await gotoPosition(target.line, target.column + 2);
    await page.keyboard.press("Control+.");
    const menu = page.locator(".action-widget:visible");
    await menu.waitFor({ timeout: 15000 });
    await page.waitForTimeout(300);
    await shot("04-quick-fix-menu");
    const items = await menu.locator(".monaco-list-row").allInnerTexts();
    log("quick fixes:", JSON.stringify(items));
    const actions = await menu.locator(".monaco-list-row.action").allInnerTexts();
    const index = actions.findIndex((t) => /narrative|topic text/i.test(t));
    if (index < 0) throw new Error(`no narrative fix offered: ${JSON.stringify(items)}`);
    for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+Shift+M");
    const deadline = Date.now() + 20000;
    let rows = [];
    while (Date.now() < deadline) {
      rows = await problemRows();
      if (!rows.some((r) => r.includes(target.message))) break;
      await page.waitForTimeout(300);
    }
    await shot("05-after-quick-fix");
    if (rows.some((r) => r.includes(target.message))) throw new Error("the narrative finding is still listed");
    const others = expected.filter((f) => f !== target && !rows.join("\n").includes(f.message));
    if (others.length) throw new Error(`the fix also removed: ${others.map((f) => f.code).join(", ")}`);
  });

  await step("Convert File to Spec… converts and the result checks clean", async () => {
    await quickOpen("convert-me.jsonl");
    await page.waitForSelector(".monaco-editor .squiggly-error", { timeout: 30000 }); // a RAGTIME run under kiddie
    await runCommand("CiteLens: Convert File to Spec");
    await page.waitForSelector('.quick-input-list .monaco-list-row:has-text("kiddie")', { timeout: 15000 });
    await page.keyboard.type("kiddie");
    await page.waitForTimeout(300);
    await shot("06-convert-pick-spec");
    await page.keyboard.press("Enter");
    const done = page.locator('.notification-toast:has-text("Converted to kiddie")').first();
    await done.waitFor({ timeout: 30000 });
    const deadline = Date.now() + 20000;
    let errors = -1;
    while (Date.now() < deadline) {
      errors = await page.locator(".monaco-editor .squiggly-error").count();
      if (errors === 0) break;
      await page.waitForTimeout(300);
    }
    await page.keyboard.press("Control+S");
    await page.waitForTimeout(800);
    await shot("07-converted");
    if (errors !== 0) throw new Error(`${errors} error squiggles after the conversion`);
    const saved = readFileSync(join(WS, "convert", "convert-me.jsonl"), "utf8");
    const { execFileSync } = await import("node:child_process");
    // the CLI reads convert/citelens.toml too: the saved file must check clean
    const out = execFileSync(process.env.CITELENS_E2E_ORACLE, ["-m", "citelens", "check", "convert-me.jsonl"], {
      cwd: join(WS, "convert"),
      encoding: "utf8",
    });
    log("CLI on the converted file:", out.trim().split("\n").pop());
    if (!/^0 errors/m.test(out)) throw new Error(`the CLI still finds errors: ${out.slice(-300)}`);
    if (saved.includes('"citations": {')) throw new Error("the file still has RAGTIME {doc: score} citations");
  });

  await step("Check All Runs in Workspace lists every run with its spec in the CiteLens Runs view", async () => {
    await runCommand("CiteLens: Check All Runs in Workspace");
    const toast = page.locator('.notification-toast:has-text("warning")').filter({ hasText: / in \d+ files? \(/ }).first();
    await toast.waitFor({ timeout: 60000 });
    const text = await toast.innerText();
    const n = Number(/ in (\d+) files? \(/.exec(text)?.[1] ?? -1);
    log("check workspace:", JSON.stringify(text.split("\n")[0]));
    if (n < 6) throw new Error(`only ${n} run files checked: ${text}`);
    const view = page.locator('.pane:has(.pane-header:has-text("CiteLens Runs"))').first();
    await view.waitFor({ timeout: 15000 });
    const rows = view.locator(".monaco-list-row");
    await rows.first().waitFor({ timeout: 15000 });
    await page.waitForTimeout(500);
    await shot("08-check-all-runs");
    await view.screenshot({ path: join(ART, "08-check-all-runs-view.png") });
    // the tree renders only the rows in sight: walk down it with the keyboard to read them all
    const seen = new Set(await rows.allInnerTexts());
    await rows.first().click();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("ArrowDown");
      await page.waitForTimeout(80);
      for (const r of await rows.allInnerTexts()) seen.add(r);
    }
    const listed = [...seen];
    log("runs view:", JSON.stringify(listed.slice(0, 8)));
    const has = (path, spec) => listed.some((r) => r.includes(path) && r.includes(spec));
    if (!has("tracks/rag25/baseline.jsonl", "rag25 ·")) throw new Error(`no rag25 entry for the rag25 run: ${listed.join(" / ")}`);
    if (!has("tracks/ragtime/T1_run_1.jsonl", "ragtime26 ·")) throw new Error(`no ragtime26 entry for the ragtime run: ${listed.join(" / ")}`);
    for (const notRun of ["topics.jsonl", "dev-nuggets", "msmarco_v2.1_doc_segmented", "draft.jsonl"]) {
      if (listed.some((r) => r.includes(notRun))) throw new Error(`${notRun} is listed as a run`);
    }
  });

  await step("Show Run Overview (offered by Check All Runs) opens the page; a click on a finding reveals it", async () => {
    // the workspace's runs from the toast of Check All Runs when it is still up, else the active run
    const offer = page.locator('.notification-toast .monaco-button:has-text("Show Run Overview")').first();
    if (await offer.isVisible().catch(() => false)) {
      log("overview: from the Check All Runs toast");
      await offer.click();
    } else {
      log("overview: the toast is gone; from the command palette on the run");
      await quickOpen(RUN);
      await runCommand("CiteLens: Show Run Overview");
    }
    const view = page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
    const section = view.locator(`section.run[data-path$="/${RUN}"]`);
    await section.locator("table.codes tr[data-code]").first().waitFor({ timeout: 60000 });
    await shot("10-run-overview");
    const shown = Number(await section.locator(".card[data-testid=errors] b").innerText());
    await section.locator("[id^=reports-] tbody tr").first().click();
    const finding = section.locator(".detail .finding").first();
    await finding.waitFor({ timeout: 15000 });
    // the place the page names for the finding (check's line and code-point column)
    const where = /:(\d+):(\d+)$/.exec((await finding.locator(".where").innerText()).trim());
    if (!where) throw new Error("the finding names no place");
    await finding.locator(".where").click(); // not on its code's documentation link
    await page.waitForSelector(`.tab.active:has-text("${RUN}")`, { timeout: 15000 });
    const selection = page.locator("#status\\.editor\\.selection, .statusbar-item[id='status.editor.selection']").first();
    const want = `Ln ${where[1]}, Col ${where[2]}`;
    const deadline = Date.now() + 10000;
    let said = "";
    while (Date.now() < deadline) {
      said = (await selection.innerText().catch(() => "")).trim();
      if (said.startsWith(want)) break;
      await page.waitForTimeout(250);
    }
    // the page's errors are the editor's (the quick fix above changed the open file)
    const status = (await statusItem().innerText()).replace(/\s+/g, " ").trim();
    const counts = /(\d+)\D+(\d+)$/.exec(status);
    await shot("11-overview-revealed");
    if (!said.startsWith(want)) throw new Error(`the editor is at ${JSON.stringify(said)}; the finding is at ${want}`);
    if (!counts || Number(counts[1]) !== shown) throw new Error(`the overview shows ${shown} errors; the status bar says ${JSON.stringify(status)}`);
  });

  await step("the Problems panel lists the findings of a run that was never opened", async () => {
    await page.keyboard.press("Escape");
    // the workspace check opened the Problems panel already (Ctrl+Shift+M would toggle it shut)
    if (!(await page.locator(".markers-panel").first().isVisible().catch(() => false))) {
      await page.keyboard.press("Control+Shift+M");
    }
    await filterProblems("**/never-opened.jsonl");
    const deadline = Date.now() + 30000;
    const runErrors = expected.filter((f) => f.severity === "error");
    let rows = [];
    while (Date.now() < deadline) {
      rows = await problemRows();
      if (rows.some((r) => r.includes("never-opened.jsonl")) && runErrors.some((f) => rows.some((r) => r.includes(f.message)))) break;
      await page.waitForTimeout(500);
    }
    await shot("09-unopened-problems");
    await filterProblems("");
    if (!rows.some((r) => r.includes("never-opened.jsonl"))) throw new Error(`no never-opened.jsonl in the Problems panel: ${rows.slice(0, 5).join(" / ")}`);
    if (!runErrors.some((f) => rows.some((r) => r.includes(f.message)))) throw new Error("its findings are not listed");
  });

  await step("the settings UI describes the settings and says the project file wins", async () => {
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+,");
    const search = page.locator(".settings-editor .suggest-input-container textarea, .settings-editor .search-container textarea").first();
    await search.waitFor({ timeout: 15000 });
    await search.fill("citelens.spec");
    const row = page.locator('.settings-editor .setting-item-contents:has-text("citelens.toml")').first();
    await row.waitFor({ timeout: 15000 });
    await page.waitForTimeout(800);
    const text = (await row.innerText()).replace(/\s+/g, " ");
    await shot("09-settings-spec");
    if (!/wins over this setting/.test(text)) throw new Error(`the spec setting does not say the project file wins: ${text.slice(0, 300)}`);
  });
  const tracksExpected = JSON.parse(readFileSync(process.env.CITELENS_E2E_TRACKS, "utf8")).findings ?? [];
  const tracksRows = async () => {
    await page.keyboard.press("Escape");
    if (!(await page.locator(".markers-panel").first().isVisible().catch(() => false))) await page.keyboard.press("Control+Shift+M");
    await filterProblems("**/tracks/**");
    await page.waitForTimeout(1500);
    return problemRows();
  };

  await step("a participant's workspace: each run's findings under its folder's settings, nothing on topics, corpus or excluded files", async () => {
    let rows = [];
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline) {
      rows = await tracksRows();
      if (tracksExpected.every((f) => rows.some((r) => r.includes(f.message)))) break;
      await page.waitForTimeout(500);
    }
    await shot("10-workspace-problems");
    await filterProblems("");
    log("tracks rows:", JSON.stringify(rows.slice(0, 8)));
    const missing = tracksExpected.filter((f) => !rows.some((r) => r.includes(f.message)));
    if (missing.length) throw new Error(`missing: ${missing.map((f) => f.message).join(" / ")}`);
    for (const notRun of ["topics.jsonl", "dev-nuggets.jsonl", "msmarco_v2.1_doc_segmented", "draft.jsonl"]) {
      if (rows.some((r) => r.includes(notRun))) throw new Error(`the Problems panel lists ${notRun}: ${rows.join(" / ")}`);
    }
    const findingRows = rows.filter((r) => /\[Ln \d+, Col \d+\]/.test(r));
    if (findingRows.length !== tracksExpected.length) throw new Error(`${findingRows.length} rows for ${tracksExpected.length} findings: ${rows.join(" / ")}`);
  });

  await step("Select Track Spec for one folder writes pyproject's override, keeps its other keys and the other folder's findings", async () => {
    const pyproject = join(WS, "tracks", "pyproject.toml");
    const before = readFileSync(pyproject, "utf8");
    await quickOpen("T1_run_1.jsonl");
    // the spec of the [[tool.citelens.overrides]] table for ragtime/, not the top-level rag25
    await statusSays("ragtime26");
    await statusItem().screenshot({ path: join(ART, "11-status-bar-override.png") });
    await runCommand("CiteLens: Select Track Spec");
    await page.waitForSelector('.quick-input-list .monaco-list-row:has-text("ragtime25")', { timeout: 15000 });
    await page.keyboard.type("ragtime25", { delay: 15 });
    await page.waitForTimeout(400);
    await page.keyboard.press("Enter");
    await page.waitForSelector('.quick-input-list .monaco-list-row:has-text("Project file")', { timeout: 15000 });
    await shot("11-where-to-write");
    await page.keyboard.press("Enter"); // the project file is the first (default) choice
    const deadline = Date.now() + 20000;
    let after = before;
    while (Date.now() < deadline && after === before) {
      await page.waitForTimeout(300);
      after = readFileSync(pyproject, "utf8");
    }
    log("pyproject after:", JSON.stringify(after));
    if (!after.includes('files = ["ragtime/*.jsonl"]\nspec = "ragtime25"')) throw new Error(`the override was not edited: ${after}`);
    const kept = before.replace('spec = "ragtime26"', 'spec = "ragtime25"');
    if (after !== kept) throw new Error(`other lines changed: ${after}`);
    await quickOpen("T1_run_1.jsonl");
    await statusSays("ragtime25");
    const rows = await tracksRows();
    await shot("12-after-select-spec");
    await filterProblems("");
    const rag25 = tracksExpected.filter((f) => String(f.path).includes("rag25"));
    if (!rag25.every((f) => rows.some((r) => r.includes(f.message)))) throw new Error(`the rag25 run's findings changed: ${rows.join(" / ")}`);
  });
} finally {
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
  writeFileSync(join(ART, "results.json"), JSON.stringify(results, null, 2));
  const failed = results.filter((r) => !r.ok);
  log(failed.length ? `${failed.length} of ${results.length} steps FAILED` : `all ${results.length} steps passed`);
  process.exit(failed.length || !results.length ? 1 : 0);
}
