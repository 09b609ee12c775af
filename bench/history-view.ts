// Figures for issue 10: the History view over 10,000 recorded questions, from the click on the
// "History" nav button to the first page of records rendered and the view interactive (the list
// no longer busy, its rows in the DOM, the search box enabled), against the same with 10 records,
// measured in the same run: two companions in this process, each with its own history file
// (HistoryStore, WAL), two Chromium pages, rounds alternating so drift hits both alike.
// Times are taken inside the page (click listener → MutationObserver), so CDP adds nothing.
// Target: ≤ 150 ms with 10,000 records.
//
//   npx tsx bench/history-view.ts [--reps 30] [--rows 10000]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { HistoryStore } from "../src/main/history/store";
import { historyRecords } from "./lib/history-records";
import { launchChromium, pollUntil, startBenchApp, type BenchApp } from "./lib/page";
import { summarize } from "./lib/stats";
import { WS_STAMPS } from "./lib/ws-stamps";
import { fixed, formatTable } from "./lib/table";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

const REPS = flag("reps", 30);
const ROWS = flag("rows", 10_000);
const BASE_ROWS = 10;
const WARMUP = 3;
/** The view's first page (History.svelte asks for 100). */
const PAGE = 100;

// A string, not a function: tsx would wrap named functions in a helper the page does not have.
// Stamps the click on the History button, then the first moment the view is interactive.
const arm = (rows: number) => `(() => {
  const w = window;
  if (w.__stop) w.__stop();
  w.__clickAt = null;
  w.__readyAt = null;
  const check = () => {
    if (w.__clickAt === null || w.__readyAt !== null) return;
    const list = document.querySelector('ul[aria-label="History records"]');
    const search = document.querySelector('form[aria-label="Search history"] input[type="search"]');
    if (list && list.getAttribute("aria-busy") === "false" && list.children.length >= ${rows} && search && !search.disabled) {
      w.__readyAt = performance.now();
      w.__stop();
    }
  };
  const onClick = (event) => {
    const button = event.target.closest && event.target.closest("nav button");
    if (button && button.textContent.trim().startsWith("History")) w.__clickAt = performance.now();
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  document.addEventListener("click", onClick, true);
  w.__stop = () => {
    observer.disconnect();
    document.removeEventListener("click", onClick, true);
  };
})()`;

interface Side {
  label: string;
  rows: number;
  app: BenchApp;
  page: Page;
  samples: number[];
  /** Click → history:list sent (mounting the view), sent → result back (wire + main), result → interactive (rendering). */
  mount: number[];
  wire: number[];
  render: number[];
}

async function open(label: string, rows: number, file: string, browser: Awaited<ReturnType<typeof launchChromium>>): Promise<Side> {
  const store = new HistoryStore({ path: file });
  for (const r of historyRecords(rows)) store.insert(r);
  store.close();
  const app = await startBenchApp({ historyPath: file });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(WS_STAMPS);
  await page.goto(app.pageUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  return { label, rows, app, page, samples: [], mount: [], wire: [], render: [] };
}

const SPLIT = `(() => {
  const sent = window.__ws.sent["history:list"] || [];
  const first = sent.find((s) => s.at >= window.__clickAt);
  const got = first && window.__ws.got[first.id];
  return first && got !== undefined ? [first.at - window.__clickAt, got - first.at, window.__readyAt - got] : null;
})()`;

/** One measurement: Inbox → History, wait until interactive, back to Inbox (unmounts the view). */
async function measure(side: Side, keep: boolean): Promise<number> {
  const nav = side.page.getByRole("navigation", { name: "Main" });
  await side.page.evaluate(arm(Math.min(PAGE, side.rows)));
  await nav.getByRole("button", { name: /^History/ }).click();
  await pollUntil(side.page, "window.__readyAt !== null");
  const ms = (await side.page.evaluate("window.__readyAt - window.__clickAt")) as number;
  const split = (await side.page.evaluate(SPLIT)) as [number, number, number] | null;
  if (keep && split) {
    side.mount.push(split[0]);
    side.wire.push(split[1]);
    side.render.push(split[2]);
  }
  await nav.getByRole("button", { name: /^Inbox/ }).click();
  await side.page.getByRole("list", { name: "History records" }).waitFor({ state: "detached" });
  return ms;
}

const dir = mkdtempSync(path.join(tmpdir(), "bench-history-view-"));
const browser = await launchChromium();
const sides: Side[] = [];
try {
  const t0 = performance.now();
  sides.push(await open(`${ROWS} records`, ROWS, path.join(dir, "full.sqlite"), browser));
  const fillMs = performance.now() - t0;
  sides.push(await open(`${BASE_ROWS} records (baseline)`, BASE_ROWS, path.join(dir, "small.sqlite"), browser));
  for (let i = 0; i < REPS + WARMUP; i++) {
    // Alternate which side goes first, so neither always runs on a warmer machine.
    const order = i % 2 ? [...sides].reverse() : sides;
    for (const side of order) {
      const ms = await measure(side, i >= WARMUP);
      if (i >= WARMUP) side.samples.push(ms);
    }
  }
  const [full, base] = sides.map((s) => summarize(s.samples));
  console.log(`history-view: click "History" → first ${PAGE} rows rendered, list not busy, search enabled (in-page clock; Chromium headless, 1280×800); ${REPS} runs each, ms`);
  console.log(
    formatTable(
      ["history", "p50", "p90", "max", "ratio p50", "mount p50", "wire+main p50", "render p50"],
      sides.map((s, k) => {
        const sum = k === 0 ? full : base;
        const p50 = (values: number[]) => fixed(summarize(values).p50);
        return [s.label, fixed(sum.p50), fixed(sum.p90), fixed(sum.max), fixed(sum.p50 / base.p50, 2), p50(s.mount), p50(s.wire), p50(s.render)];
      }),
    ),
  );
  console.log(`target ≤ 150 ms with ${ROWS} records at p50: ${full.p50 <= 150 ? "met" : "NOT met"} (${fixed(full.p50)} ms); filling ${ROWS} rows took ${fixed(fillMs / 1000, 1)} s`);
  console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
} finally {
  await browser.close();
  for (const side of sides) await side.app.close();
  rmSync(dir, { recursive: true, force: true });
}
