const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/**
 * `then` relative to `now` in the UI language ("now", "5 minutes ago", "yesterday"): under a minute
 * counts as now (the server writes last-seen times at most once a minute).
 */
export function relativeTime(then: Date, now: Date, languageTag: string): string {
  const format = new Intl.RelativeTimeFormat(languageTag, { numeric: 'auto' });
  let value = (then.getTime() - now.getTime()) / 1000;
  if (Math.abs(value) < 60) return format.format(0, 'second');
  for (const [unit, size] of STEPS) {
    if (Math.abs(Math.round(value)) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}
