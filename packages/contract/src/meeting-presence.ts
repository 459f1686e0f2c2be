/**
 * Meeting presence: who is in a room, for the pre-join's "Ada and 2 others are here". A module
 * of its own so that only the meeting screens' lazy chunks carry it (the bundler puts a module shared with
 * the entry screens, such as constants.ts or paths.ts, in their start-up chunk, whole).
 */

/**
 * Calls only the meeting room page makes (mounted under API_PREFIX like API). A table of their own, not
 * in API: every entry screen ships API in the shared start-up chunk, and these are read by the meeting's
 * lazy chunks and the server alone.
 */
export const MEETING_API = {
  /** PUT: "I am in the room" (every PRESENCE_HEARTBEAT_S while joined); DELETE: "I left". */
  videoconferencePresence: '/v2/videoconference/:id/presence',
} as const;

/**
 * Presence ("Ada and 2 others are here" on the pre-join): while joined, the room page says so every
 * PRESENCE_HEARTBEAT_S; the server forgets a participant PRESENCE_TTL_S after the last one (≈ 2.5 beats,
 * so one lost beat does not make anyone vanish, and a crashed tab is gone within 40 s).
 */
export const PRESENCE_HEARTBEAT_S = 15;
export const PRESENCE_TTL_S = 38;
/** How many participants the public view names (first names only); the rest are counted. */
export const PRESENCE_NAMES_SHOWN = 2;
