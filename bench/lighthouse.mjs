// Lighthouse (mobile preset, simulated throttling) on the entry screens of the built server, driving
// Debian's Chromium through chrome-launcher. Reports go to bench/out/lighthouse-*.json.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { median, out, startOurs } from './lib.mjs';
import { CHROMIUM_ARGS } from './bundle.mjs';

const PAGES = ['/user/login', '/user/signup', '/guest'];
/** Runs of the form-answers measurement per page (medians reported). */
const FORM_RUNS = Number(process.env.FORM_RUNS ?? 9);

/**
 * Time until the form answers: from navigation to the app having hydrated the screen (<html
 * data-hydrated>: from then on a click or a key is the app's), and the first contentful paint of the same
 * load, in Debian's Chromium with Lighthouse's mobile throttling applied for real (4× CPU slowdown; 150 ms
 * round trip, 1.6 Mbit/s down, 750 kbit/s up; a 412×823 screen), a fresh profile each run. Lighthouse's
 * own throttling is simulated: it estimates paints but cannot say when a script has run.
 */
export async function formAnswers(base, path, runs = FORM_RUNS) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const fcp = [];
  const ready = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        isMobile: true,
        hasTouch: true,
      });
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await tab.addInitScript(() => {
        new MutationObserver((_m, observer) => {
          if (document.documentElement.hasAttribute('data-hydrated')) {
            window.__formAnswersAt = performance.now();
            observer.disconnect();
          }
        }).observe(document, { attributes: true, subtree: true });
      });
      await tab.goto(`${base}${path}`, { waitUntil: 'load' });
      await tab.waitForFunction(() => window.__formAnswersAt !== undefined, null, { timeout: 60_000 });
      const times = await tab.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        ready: window.__formAnswersAt,
      }));
      fcp.push(times.fcp);
      ready.push(times.ready);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { fcp: median(fcp), ready: median(ready), runs };
}
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/** Lighthouse runs per page (the median run by its largest paint is reported): the machine may be shared. */
const LH_RUNS = Number(process.env.LH_RUNS ?? 3);
/**
 * The slowest largest paint the row accepts. Lighthouse's simulated mobile network (150 ms round trips,
 * plain HTTP/1.1 here) puts the HTML alone at 0.60 s (a DNS lookup of two round trips, the connection,
 * the request) when it comes in the connection's first window (10 segments: 14.6 KB, headers
 * included), plus the first frame's CPU work (×4). Nothing else may be fetched for that frame: each
 * Poppins face fetched cost one or two round trips more (0.90 s). So a prerendered page carries the
 * glyphs its first frame draws, cut to its text, as data: URLs (build/first-frame-fonts.mjs; Lantern
 * counts them as no network time), its step's picture is an SVG in the HTML, its icon a data: URL, and
 * its code and texts are fetched once that frame is on the screen: about 13.5 KB of HTML as sent,
 * first frame at 0.65-0.72 s.
 * That the largest paint is the first frame's is read from the load Chromium recorded (observed LCP =
 * FCP): Lantern's two estimates differ by more than the frame. Its FCP counts the first layout task
 * alone, its LCP every layout task before the paint (half of it: the mean of its optimistic and
 * pessimistic graphs), so that with no request left to wait for, their CPU difference shows: 0 to
 * 140 ms on a machine loaded 8 to 12 (one page, the same frame).
 */
const FIRST_PAINT_BUDGET_MS = 800;

export default async function lighthouseRows() {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const ours = await startOurs();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROMIUM_ARGS,
  });
  mkdirSync(out, { recursive: true });
  const rows = [];
  try {
    for (const path of PAGES) {
      const runs = [];
      // A run Lighthouse itself could not complete (lhr.runtimeError, e.g. a protocol timeout on a busy
      // machine) measured nothing: it is named in the row and run again, at most LH_RUNS times over.
      const errors = [];
      while (runs.length < LH_RUNS && errors.length < LH_RUNS) {
        const result = await lighthouse(`${ours.base}${path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: CATEGORIES,
        });
        if (result.lhr.runtimeError) errors.push(result.lhr.runtimeError.code);
        else runs.push(result);
      }
      if (!runs.length) throw new Error(`Lighthouse failed on ${path}: ${errors.join(', ')}`);
      const lcpOf = (r) => r.lhr.audits['largest-contentful-paint']?.numericValue ?? Infinity;
      const result = [...runs].sort((a, b) => lcpOf(a) - lcpOf(b))[Math.floor(runs.length / 2)];
      const lhr = result.lhr;
      writeFileSync(join(out, `lighthouse-${path.replaceAll('/', '_')}.json`), result.report);
      const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
      const audit = (a) => lhr.audits[a]?.displayValue ?? '?';
      const [perf, a11y, bp, seo] = CATEGORIES.map(score);
      const fcp = lhr.audits['first-contentful-paint']?.numericValue ?? Infinity;
      const lcp = lcpOf(result);
      // Whether the largest paint was in the first frame, as Chromium recorded the load (see the budget).
      const observed = lhr.audits.metrics?.details?.items?.[0] ?? {};
      // Timestamps in microseconds; two paints less than a millisecond apart are one frame (frames are
      // several milliseconds apart at any refresh rate), though Chromium may time the two entries apart.
      const firstFrame =
        observed.observedFirstContentfulPaintTs !== undefined &&
        Math.abs(observed.observedLargestContentfulPaintTs - observed.observedFirstContentfulPaintTs) < 1000;
      const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? Infinity;
      const failing = Object.values(lhr.audits)
        .filter(
          (a) =>
            a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual',
        )
        .map((a) => a.id);
      const spread = runs.map(
        (r) =>
          `${Math.round((r.lhr.categories.performance?.score ?? 0) * 100)}/${Math.round(r.lhr.audits['first-contentful-paint']?.numericValue)}/${Math.round(lcpOf(r))}`,
      );
      const form = await formAnswers(ours.base, path);
      rows.push({
        figure: `Lighthouse mobile ${path}`,
        budget: `perf 100, LCP ≤ ${FIRST_PAINT_BUDGET_MS / 1000} s and in the first frame (observed LCP = FCP), CLS 0, a11y 100, BP 100, SEO 100`,
        measured: `perf ${perf} (FCP ${Math.round(fcp)} ms, LCP ${Math.round(lcp)} ms, ${firstFrame ? 'LCP in the first frame' : `observed LCP ${Math.round(observed.observedLargestContentfulPaint)} ms after FCP ${Math.round(observed.observedFirstContentfulPaint)} ms`}, TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')}), a11y ${a11y}, BP ${bp}, SEO ${seo} — median of ${runs.length} runs by LCP (perf/FCP/LCP: ${spread.join(', ')}${errors.length ? `; run again after ${errors.join(', ')}` : ''}); form answers after ${Math.round(form.ready)} ms, first paint ${Math.round(form.fcp)} ms (Chromium, mobile throttling, medians of ${form.runs})`,
        pass:
          perf === 100 &&
          firstFrame &&
          lcp <= FIRST_PAINT_BUDGET_MS &&
          cls === 0 &&
          a11y === 100 &&
          bp === 100 &&
          seo === 100,
        note: failing.length ? `below 1: ${failing.join(', ')}` : undefined,
      });
    }
  } finally {
    chrome.kill();
    await ours.close();
  }
  return rows;
}
