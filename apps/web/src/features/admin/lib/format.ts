const formats = new Map<string, Intl.DateTimeFormat>();

/** An instant as a date and time in the UI language ("28 Nov 2026, 10:04"). */
export function formatWhen(iso: string, languageTag: string): string {
  let format = formats.get(languageTag);
  if (!format) {
    format = new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(languageTag, format);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
}
