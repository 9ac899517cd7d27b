// Restricted Mode in code-server (see run-untrusted.sh): the folder is not trusted, its
// settings name a workspace "interpreter" that leaves a marker when run. Passes only if the
// extension started the server with the user's interpreter, the run was checked, and the
// marker never appeared.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { extensionLog, openBrowser, quickOpen } from "./workbench.mjs";

const BASE = process.env.CITELENS_E2E_URL;
const WS = process.env.CITELENS_E2E_WORKSPACE;
const ART = process.env.CITELENS_E2E_ARTIFACTS;
const MARKER = process.env.CITELENS_E2E_MARKER;
const USER_PYTHON = process.env.CITELENS_E2E_PYTHON_USED;
const RUN = "rag26-with-mistakes.jsonl";
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

const { ctx, page } = await openBrowser(join(ART, "chrome-profile"));
const shot = (name) => page.screenshot({ path: join(ART, `${name}.png`) });
let failed = null;
try {
  await page.goto(`${BASE}/?folder=${encodeURIComponent(WS)}`, { waitUntil: "domcontentloaded" });
  await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
  await page.waitForSelector('.statusbar-item:has-text("Restricted Mode"), [aria-label*="Restricted Mode"]', { timeout: 30000 });
  log("the folder is open in Restricted Mode");
  await page.locator(".monaco-workbench").click({ position: { x: 700, y: 400 } }).catch(() => {});
  await quickOpen(page, RUN);
  const deadline = Date.now() + 90000;
  while (Date.now() < deadline && !/CiteLens server \d|server started|Interpreter:/.test(extensionLog())) await page.waitForTimeout(500);
  // the server's findings reach the editor: squiggles in the open run
  await page.waitForSelector(".squiggly-error, .squiggly-warning", { timeout: 90000 });
  await shot("restricted-mode-checked");
  const text = extensionLog();
  const line = text.split("\n").find((l) => l.includes("Interpreter:")) ?? "";
  log(line.trim());
  if (!line.includes(USER_PYTHON)) throw new Error(`the server did not start with the user's interpreter: ${line}`);
  if (line.includes(".venv/bin/python") && !line.includes(USER_PYTHON)) throw new Error("the workspace interpreter was chosen");
  if (existsSync(MARKER)) throw new Error("the workspace's interpreter was run");
  log("PASS the untrusted workspace's interpreter never ran; the run was checked with the user's");
} catch (err) {
  failed = err;
  log(`FAIL ${String(err.message ?? err).split("\n").slice(0, 3).join(" | ")}`);
  await shot("FAILED").catch(() => {});
  log(`log tail: ${extensionLog().slice(-800)}`);
} finally {
  await ctx.close();
}
process.exit(failed ? 1 : 0);
