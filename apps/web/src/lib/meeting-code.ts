/** A room name as the server makes them: "abc-defg-hij" (meetings/service.ts). */
const ROOM = /^[a-z]{3}-[a-z]{4}-[a-z]{3}$/;

/**
 * The room a person pasted or typed: a code ("abc-defg-hij", any case, with or without the dashes or
 * spaces) or a meeting link ending in /meet/<code> (query and fragment ignored). Null when it is neither.
 */
export function meetingCodeFrom(input: string): string | null {
  let text = input.trim();
  const inLink = /\/meet\/([^/?#\s]+)/.exec(text);
  if (inLink) text = decodeURIComponent(inLink[1] ?? '');
  const letters = text.toLowerCase().replace(/[\s-]/g, '');
  if (!/^[a-z]{10}$/.test(letters)) return null;
  const code = `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7)}`;
  return ROOM.test(code) ? code : null;
}
