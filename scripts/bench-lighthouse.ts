/**
 * Lighthouse mobile performance of pages, for the page section of `npm run bench` (scripts/bench-pages.ts).
 *
 * Lighthouse 12 programmatically, its default configuration: mobile form factor (Moto G Power screen),
 * simulated throttling (slow 4G, 4× CPU), the performance category only. Chromium is the machine's
 * (CHROMIUM_PATH or /usr/bin/chromium, as the browser tests use), started by chrome-launcher (which comes with
 * Lighthouse) headless with --no-sandbox: Chromium refuses to start as root without it, and this browser only
 * opens our own server on 127.0.0.1. Pages are asked for in Arabic (cookie i18nextLng=ar, which the page
 * cache accepts). Each page runs RUNS times (Lighthouse varies from run to run, more on a loaded machine) and
 * each figure is the median of its runs. Skips, saying why, when there is no Chromium.
 */
import { chromiumPath, skipReason } from "#tests/e2e/support/browser.ts";

export type LighthouseFigures = {
  /** Performance score, 0–100 (median), and the lowest and highest of the runs. */
  score: number;
  scoreMin: number;
  scoreMax: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Lighthouse's total byte weight (transfer sizes of every request). */
  bytes: number;
  runs: number;
  /**
   * Lighthouse's measure of this machine's CPU (median; lower is slower or busier). The simulation slows the
   * tasks it observed 4×, so a busy machine scores lower than the page deserves.
   */
  benchmarkIndex: number;
};

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Runs Lighthouse on each page (path on `base`) and prints a table; returns the medians by page name, or
 * undefined for a page whose runs all failed. Returns undefined (after saying why) when it cannot run at all.
 */
export async function benchLighthouse(base: string, pages: { name: string; path: string }[]): Promise<Map<string, LighthouseFigures> | undefined> {
  console.log(`\nLighthouse 12 mobile (default config: simulated throttling), performance only, Arabic, median of ${RUNS} runs\n`);
  if (!chromiumPath) {
    console.log(`skipped: ${skipReason}`);
    return undefined;
  }
  if (process.env.BENCH_LIGHTHOUSE === "off") {
    console.log("skipped: BENCH_LIGHTHOUSE=off");
    return undefined;
  }
  const loaded = await Promise.all([import("lighthouse"), import("chrome-launcher")]).catch((error) => {
    console.log(`skipped: Lighthouse could not be loaded (${String(error)})`);
    return undefined;
  });
  if (!loaded) return undefined;
  const [{ default: lighthouse }, { launch }] = loaded;
  const chrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    logLevel: "silent",
  });
  const figures = new Map<string, LighthouseFigures>();
  try {
    console.log("page       score (min–max)   FCP       LCP       TBT       CLS     Speed Index   total bytes   machine index");
    for (const { name, path } of pages) {
      const runs: Omit<LighthouseFigures, "scoreMin" | "scoreMax" | "runs">[] = [];
      const failures: string[] = [];
      for (let i = 0; i < RUNS; i++) {
        try {
          const result = await lighthouse(base + path, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance"],
            extraHeaders: { Cookie: "i18nextLng=ar" },
          });
          const lhr = result?.lhr;
          if (!lhr || lhr.runtimeError) {
            failures.push(lhr?.runtimeError?.message ?? "no result");
            continue;
          }
          const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
          runs.push({
            score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
            fcpMs: audit("first-contentful-paint"),
            lcpMs: audit("largest-contentful-paint"),
            tbtMs: audit("total-blocking-time"),
            cls: audit("cumulative-layout-shift"),
            speedIndexMs: audit("speed-index"),
            bytes: audit("total-byte-weight"),
            benchmarkIndex: lhr.environment.benchmarkIndex,
          });
        } catch (error) {
          failures.push(String(error));
        }
      }
      if (!runs.length) {
        console.log(`${name.padEnd(10)} failed: ${failures.join("; ")}`);
        continue;
      }
      const pick = (key: keyof (typeof runs)[number]) => median(runs.map((r) => r[key]));
      const f: LighthouseFigures = {
        score: pick("score"),
        scoreMin: Math.min(...runs.map((r) => r.score)),
        scoreMax: Math.max(...runs.map((r) => r.score)),
        fcpMs: pick("fcpMs"),
        lcpMs: pick("lcpMs"),
        tbtMs: pick("tbtMs"),
        cls: pick("cls"),
        speedIndexMs: pick("speedIndexMs"),
        bytes: pick("bytes"),
        runs: runs.length,
        benchmarkIndex: pick("benchmarkIndex"),
      };
      figures.set(name, f);
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
      console.log(
        `${name.padEnd(10)} ${String(f.score).padStart(5)} (${f.scoreMin}–${f.scoreMax})`.padEnd(28) +
          `${s(f.fcpMs)}  ${s(f.lcpMs)}  ${`${f.tbtMs.toFixed(0)} ms`.padStart(8)}  ${f.cls.toFixed(3).padStart(6)}  ${s(f.speedIndexMs).padStart(11)}  ${`${(f.bytes / 1024).toFixed(1)} KB`.padStart(11)}   ${f.benchmarkIndex.toFixed(0).padStart(13)}` +
          (failures.length ? `   (${failures.length} run(s) failed: ${failures[0]})` : ""),
      );
    }
  } finally {
    chrome.kill();
  }
  return figures;
}
