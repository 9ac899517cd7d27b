// What drive.mjs and drive-untrusted.mjs share: the headless chromium on code-server's
// workbench, the extension's log as code-server wrote it, and opening a file by name.
import { chromium } from "playwright-core";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Headless chromium with its profile in `profile`: the browser context and its page. */
export async function openBrowser(profile) {
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
    viewport: { width: 1400, height: 900 },
  });
  return { ctx, page: ctx.pages()[0] ?? (await ctx.newPage()) };
}

/** The CiteLens output channel's log files under $CITELENS_E2E_LOGS, as one text. */
export function extensionLog() {
  const dir = process.env.CITELENS_E2E_LOGS;
  if (!dir || !existsSync(dir)) return "";
  const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith("CiteLens.log"));
  return files.map((f) => readFileSync(join(dir, String(f)), "utf8")).join("\n");
}

/** Open a workspace file through Quick Open (Ctrl+P) and wait for its tab. */
export async function quickOpen(page, file) {
  // Quick Open can drop an Enter pressed while its list is still refreshing (seen once in
  // CI on a busy machine: the row was shown, no tab opened): then it is asked once more.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+P");
    await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: 15000 });
    await page.keyboard.type(file, { delay: 15 });
    await page.waitForSelector(`.quick-input-list .monaco-list-row:has-text("${file}")`, { timeout: 15000 });
    await page.keyboard.press("Enter");
    try {
      await page.waitForSelector(`.tab.active:has-text("${file}")`, { timeout: attempt === 1 ? 8000 : 15000 });
      return;
    } catch (error) {
      if (attempt === 2) throw error;
    }
  }
}
