/**
 * Constants of the meeting page only (spec §4, §9), in a module of their own: the web's first screens
 * import the contract's other constants, and a module is bundled whole into one chunk, so these would
 * otherwise ride in every entry screen's download.
 */

/** Meeting timings (§4, §9). */
export const MEET_JOIN_DELAY_MS = 2000;
export const WAITING_FOR_HOST_RETRY_MS = 5000;
export const RECORDING_START_DELAY_MS = 3000;
export const RECORDING_RETRY_AT_MS = 120_000;
export const RECORDING_MAX_RETRIES = 1;
/** Spec says "not shown": our choice, 30 s to answer the keep-alive prompt. */
export const KEEP_ALIVE_COUNTDOWN_S = 30;

/** Jitsi toolbar: the 26 buttons our room offers, minus those in `hideButtons` (§9). */
export const TOOLBAR_BUTTONS = [
  'camera',
  'chat',
  'closedcaptions',
  'desktop',
  'download',
  'embedmeeting',
  'etherpad',
  'feedback',
  'filmstrip',
  'fullscreen',
  'hangup',
  'help',
  'invite',
  'livestreaming',
  'microphone',
  'participants-pane',
  'profile',
  'raisehand',
  'recording',
  'security',
  'select-background',
  'settings',
  'shortcuts',
  'stats',
  'tileview',
  'whiteboard',
] as const;
export type ToolbarButton = (typeof TOOLBAR_BUTTONS)[number];
