// Opens `citelens report` pages in headless chromium, offline, and checks what a reader
// sees: the page loads with no request beyond its own file and no CSP violation, its script
// runs, the charts render, the counts equal `citelens check --format json`'s, report text
// stays text, clicks post "reveal" messages (as in the VS Code webview), and a 10,000-report
// page draws one page of rows at a time. Usage: node overview-page.mjs CASES.json
// (written by tests/overview/test_page_in_chromium.py). Prints one JSON object: the
// failures (empty when all passed) and the timings; exit status 1 on any failure.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const failures = [];
const timings = {};
const fail = (name, what) => failures.push(`${name}: ${what}`);
// JSON with every object's keys in order, to compare nested counts
const sorted = (value) => JSON.stringify(value, (_, v) =>
  v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic"],
});

async function open(c) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, offline: true });
  const page = await context.newPage();
  const url = pathToFileURL(c.path).href;
  const problems = [];
  page.on("request", (r) => { if (r.url() !== url && !r.url().startsWith("data:")) problems.push(`request ${r.url()}`); });
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console error: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  // the VS Code webview's API, as a recorder: what a click would send to the extension
  await page.addInitScript(() => {
    window.__posted = [];
    window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m) });
  });
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 60000 });
  timings[`${c.name}: load`] = Date.now() - t0;
  return { context, page, problems };
}

for (const c of cases) {
  let opened;
  try {
    opened = await open(c);
  } catch (err) {
    fail(c.name, `did not load: ${err.message.split("\n")[0]}`);
    continue;
  }
  const { context, page, problems } = opened;
  try {
    // the counts: every run's cards and its findings-by-code table against check's JSON
    for (const [r, want] of c.expect.runs.entries()) {
      for (const key of ["reports", "errors", "warnings", "infos"]) {
        const shown = await page.textContent(`#run-${r} .card[data-testid=${key}] b`);
        if (Number(shown) !== want[key]) fail(c.name, `run ${r} ${key}: page ${shown}, check ${want[key]}`);
      }
      const rows = await page.$$eval(`#run-${r} table.codes tr[data-code]`, (trs) =>
        Object.fromEntries(trs.map((tr) => [`${tr.dataset.code}|${tr.dataset.severity}`, Number(tr.querySelector(".count").textContent)])));
      if (JSON.stringify(Object.entries(rows).sort()) !== JSON.stringify(Object.entries(want.codes).sort())) {
        fail(c.name, `run ${r} codes: page ${JSON.stringify(rows)}, check ${JSON.stringify(want.codes)}`);
      }
      // support by judge and tier: the run's table, and each topic's share per group
      if (want.support_groups) {
        const groups = await page.$$eval(`#run-${r} table.judges tr[data-group]`, (trs) =>
          Object.fromEntries(trs.map((tr) => [tr.dataset.group, Object.fromEntries(
            Array.from(tr.querySelectorAll("td[data-verdict]")).map((td) => [td.dataset.verdict, Number(td.dataset.count)]))])));
        if (sorted(groups) !== sorted(want.support_groups)) {
          fail(c.name, `run ${r} support by judge and tier: page ${JSON.stringify(groups)}, check ${JSON.stringify(want.support_groups)}`);
        }
        const topics = await page.$$eval(`#topics-${r} tbody tr`, (trs) =>
          Object.fromEntries(trs.map((tr) => [tr.cells[0].textContent, Object.fromEntries(
            Array.from(tr.querySelectorAll("td[data-group]")).map((td) => [td.dataset.group, td.textContent]))])));
        if (sorted(topics) !== sorted(want.topic_groups)) {
          fail(c.name, `run ${r} topics by judge and tier: page ${JSON.stringify(topics)}, check ${JSON.stringify(want.topic_groups)}`);
        }
      }
    }
    // the charts render: bars with a width and the fill of their class (the stylesheet applied)
    const bars = await page.$$eval("svg.chart rect.bar", (rects) => rects.map((rect) => ({
      width: rect.getBBox().width, fill: getComputedStyle(rect).fill })));
    if (bars.length < (c.min_bars ?? 1)) fail(c.name, `${bars.length} chart bars, expected at least ${c.min_bars ?? 1}`);
    if (bars.some((b) => !(b.width >= 0) || !b.fill || b.fill === "none" || b.fill === "rgb(0, 0, 0)")) {
      fail(c.name, `a chart bar without its colour: ${JSON.stringify(bars.slice(0, 3))}`);
    }
    if (c.screenshot) await page.screenshot({ path: c.screenshot, fullPage: false });
    if (c.tiers_screenshot) await page.locator("#run-0 table.judges").screenshot({ path: c.tiers_screenshot });
    // the drill-down of the first report, and what a click on its first finding posts
    await page.click("#reports-0 tbody tr:first-child");
    await page.waitForSelector("#detail-0 h4");
    const sentences = await page.$$eval("#detail-0 .sentence .text", (ns) => ns.map((n) => n.textContent));
    if (c.first_sentences && JSON.stringify(sentences) !== JSON.stringify(c.first_sentences)) {
      fail(c.name, `drill-down sentences ${JSON.stringify(sentences)}, expected ${JSON.stringify(c.first_sentences)}`);
    }
    if (c.marks && (await page.$$("#detail-0 .passage mark")).length === 0) fail(c.name, "no matched words marked");
    if (c.first_finding) {
      await page.click("#detail-0 .finding");
      const posted = await page.evaluate(() => window.__posted);
      const want = { command: "reveal", ...c.first_finding };
      if (JSON.stringify(posted[0]) !== JSON.stringify(want)) fail(c.name, `click posted ${JSON.stringify(posted)}, expected ${JSON.stringify(want)}`);
    }
    if (c.detail_screenshot) await page.locator("#detail-0").screenshot({ path: c.detail_screenshot });
    // hostile text: shown as text, nothing of it runs or becomes an element
    if (c.hostile) {
      const seen = await page.evaluate(() => ({
        pwned: window.__pwned ?? null,
        images: document.querySelectorAll("img").length,
        scripts: document.querySelectorAll("script").length,
        text: document.body.innerText,
      }));
      if (seen.pwned !== null) fail(c.name, "hostile text ran as script");
      if (seen.images) fail(c.name, `${seen.images} <img> elements made from report text`);
      if (seen.scripts !== 2) fail(c.name, `${seen.scripts} script elements (the page has 2)`);
      for (const text of c.hostile) if (!seen.text.includes(text)) fail(c.name, `the text ${JSON.stringify(text)} is not shown as text`);
    }
    // a big run: one page of rows in the document, paging and filtering answer
    if (c.big) {
      const rows = await page.$$eval("#reports-0 tbody tr", (trs) => trs.length);
      if (rows !== 50) fail(c.name, `${rows} report rows drawn at once, expected one page of 50`);
      let t = Date.now();
      await page.click("#reports-0 .pager button:nth-of-type(2)");
      await page.waitForFunction(() => document.querySelector("#reports-0 .pager span").textContent.includes("page 2 of"));
      timings[`${c.name}: next page`] = Date.now() - t;
      t = Date.now();
      await page.fill("#reports-0 .filter", c.big.filter);
      await page.waitForFunction((n) => document.querySelector("#reports-0 .pager span").textContent.startsWith(`${n} rows`), c.big.matching);
      timings[`${c.name}: filter`] = Date.now() - t;
      t = Date.now();
      await page.click("#reports-0 th:nth-child(5)");  // sort by errors
      await page.waitForFunction(() => document.querySelector("#reports-0 .pager span").textContent.includes("page 1 of"));
      timings[`${c.name}: sort`] = Date.now() - t;
    }
  } catch (err) {
    fail(c.name, err.message.split("\n")[0]);
  }
  for (const p of problems) fail(c.name, p);
  await context.close();
}
await browser.close();
console.log(JSON.stringify({ failures, timings }));
process.exit(failures.length ? 1 : 0);
