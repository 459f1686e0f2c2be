// Lighthouse (mobile preset, simulated throttling) on the entry screens of the built server, driving
// Debian's Chromium through chrome-launcher. Reports go to bench/out/lighthouse-*.json.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { out, startOurs } from './lib.mjs';
import { CHROMIUM_ARGS } from './bundle.mjs';

const PAGES = ['/user/login', '/user/signup', '/guest'];
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
      rows.push({
        figure: `Lighthouse mobile ${path}`,
        budget: 'perf ≥ 99, LCP ≤ 1.2 s, CLS 0, a11y 100, BP 100, SEO 100',
        measured: `perf ${perf} (FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')}, TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')}), a11y ${a11y}, BP ${bp}, SEO ${seo}`,
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
