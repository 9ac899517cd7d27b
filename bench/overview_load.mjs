// Loads pages in headless chromium (offline) and prints, per page, the median milliseconds
// from navigation to the page's script being done (body[data-ready]) or, for a baseline
// page, to its load event. Usage: node bench/overview_load.mjs ROUNDS PAGE...
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(new URL("../vscode-extension/e2e/package.json", import.meta.url));
const { chromium } = require("playwright-core");
const [rounds, ...pages] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const out = {};
for (const path of pages) {
  const times = [];
  for (let i = 0; i < Number(rounds); i++) {
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(pathToFileURL(path).href);
    await page.waitForSelector("body[data-ready]", { state: "attached", timeout: 120000 });
    times.push(Date.now() - t0);
    await context.close();
  }
  times.sort((a, b) => a - b);
  out[path] = times[Math.floor(times.length / 2)];
}
await browser.close();
console.log(JSON.stringify(out));
