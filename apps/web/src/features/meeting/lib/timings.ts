import { RECORDING_RETRY_AT_MS } from '@suite/contract/core';

/** Our choices where the spec is silent (documented in docs/jitsi-mapping.md). */

/** After the one retry, how long the recorder gets before the recorder-error dialog shows. */
const RECORDING_GIVE_UP_AFTER_RETRY_MS = 60_000;
export const RECORDING_GIVE_UP_AT_MS = RECORDING_RETRY_AT_MS + RECORDING_GIVE_UP_AFTER_RETRY_MS;
/** Alone in the room this long → the keep-alive prompt asks whether to keep the conference open. */
export const KEEP_ALIVE_IDLE_MS = 15 * 60_000;
/** How long a copy button says 'Copied' before it reads 'Copy' again. */
export const COPIED_FEEDBACK_MS = 2500;
/** If Jitsi does not confirm a hangup, the page leaves anyway after this long. */
export const HANGUP_FALLBACK_MS = 4000;
