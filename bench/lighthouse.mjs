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
      const result = await lighthouse(`${ours.base}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
      });
      const lhr = result.lhr;
      writeFileSync(join(out, `lighthouse-${path.replaceAll('/', '_')}.json`), result.report);
      const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
      const audit = (a) => lhr.audits[a]?.displayValue ?? '?';
      const [perf, a11y, bp, seo] = CATEGORIES.map(score);
      const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? Infinity;
      const cls = lhr.audits['cumulative-layout-shift']?.numericValue ?? Infinity;
      const failing = Object.values(lhr.audits)
        .filter(
          (a) =>
            a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual',
        )
        .map((a) => a.id);
      const form = await formAnswers(ours.base, path);
      rows.push({
        figure: `Lighthouse mobile ${path}`,
        budget: 'perf ≥ 99, LCP ≤ 1.2 s, CLS 0, a11y 100, BP 100, SEO 100',
        measured: `perf ${perf} (FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')}, TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')}), a11y ${a11y}, BP ${bp}, SEO ${seo}; form answers after ${Math.round(form.ready)} ms, first paint ${Math.round(form.fcp)} ms (Chromium, mobile throttling, medians of ${form.runs})`,
        pass: perf >= 99 && lcp <= 1200 && cls === 0 && a11y === 100 && bp === 100 && seo === 100,
        note: failing.length ? `below 1: ${failing.join(', ')}` : undefined,
      });
    }
  } finally {
    chrome.kill();
    await ours.close();
  }
  return rows;
}
