import { TOOLBAR_BUTTONS, type ToolbarButton } from '@suite/contract/core';
import { safeHttpUrl } from '../../../lib/safe-redirect';

/**
 * The meeting query parameters of spec §2, parsed and checked once. Mapping to Jitsi is in jitsi-options.ts
 * and documented in docs/jitsi-mapping.md.
 */
export interface MeetingQuery {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** Only http(s). */
  avatar: string | null;
  jwt: string | null;
  startRecording: boolean;
  ui: {
    hideInviteMoreHeader: boolean | null;
    disableVideoBackground: boolean | null;
    disableJoinLeaveNotifications: boolean | null;
    /** Only http(s). */
    defaultLogoUrl: string | null;
    /** Only http(s). */
    supportUrl: string | null;
    toolbarAlwaysVisible: boolean | null;
    showBrandWatermark: boolean | null;
    /** Only http(s). */
    brandWatermarkLink: string | null;
    appName: string | null;
  };
  meeting: {
    startWithAudioMuted: boolean | null;
    startWithVideoMuted: boolean | null;
    liveStreamingEnabled: boolean | null;
    fileRecordingsEnabled: boolean | null;
    startScreenSharing: boolean | null;
    hideParticipantsStats: boolean | null;
    enableScreenshotCapture: boolean | null;
    channelLastN: number | null;
    disableInviteFunctions: boolean | null;
    prejoinPageEnabled: boolean | null;
    hideLogo: boolean | null;
    hideDesktopLink: boolean | null;
  };
  /** The toolbar: our 26 buttons minus those listed in hideButtons. */
  toolbarButtons: ToolbarButton[];
  /** What was given but refused (unsafe URL, bad value), for the log. */
  refused: string[];
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** Bounded plain text: names are shown as text, never as markup. */
function text(value: string | null, max = 100): string | null {
  const clean = value?.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return clean ? clean.slice(0, max) : null;
}

export function parseMeetingQuery(search: string | URLSearchParams): MeetingQuery {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const refused: string[] = [];
  const bool = (name: string): boolean | null => {
    const raw = params.get(name);
    if (raw === null) return null;
    const v = raw.trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    refused.push(name);
    return null;
  };
  const url = (name: string): string | null => {
    const raw = params.get(name);
    if (raw === null || raw === '') return null;
    const safe = safeHttpUrl(raw);
    if (!safe) refused.push(name);
    return safe;
  };
  const lastN = params.get('channelLastN');
  let channelLastN: number | null = null;
  if (lastN !== null) {
    const n = Number(lastN);
    if (Number.isInteger(n) && n >= -1 && n <= 100) channelLastN = n;
    else refused.push('channelLastN');
  }
  const hidden = new Set(
    (params.get('hideButtons') ?? '')
      .split(',')
      .map((b) => b.trim().toLowerCase())
      .filter(Boolean),
  );
  const jwt = params.get('jwt');
  const jwtOk = jwt !== null && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(jwt);
  if (jwt !== null && !jwtOk) refused.push('jwt');

  return {
    firstName: text(params.get('first_name')),
    lastName: text(params.get('last_name')),
    email: text(params.get('email'), 320),
    avatar: url('avatar'),
    jwt: jwtOk ? jwt : null,
    startRecording: params.get('start_recording') === 'true',
    ui: {
      hideInviteMoreHeader: bool('HIDE_INVITE_MORE_HEADER'),
      disableVideoBackground: bool('DISABLE_VIDEO_BACKGROUND'),
      disableJoinLeaveNotifications: bool('DISABLE_JOIN_LEAVE_NOTIFICATIONS'),
      defaultLogoUrl: url('DEFAULT_LOGO_URL'),
      supportUrl: url('SUPPORT_URL'),
      toolbarAlwaysVisible: bool('TOOLBAR_ALWAYS_VISIBLE'),
      showBrandWatermark: bool('SHOW_BRAND_WATERMARK'),
      brandWatermarkLink: url('BRAND_WATERMARK_LINK'),
      appName: text(params.get('APP_NAME'), 60),
    },
    meeting: {
      startWithAudioMuted: bool('startWithAudioMuted'),
      startWithVideoMuted: bool('startWithVideoMuted'),
      liveStreamingEnabled: bool('liveStreamingEnabled'),
      fileRecordingsEnabled: bool('fileRecordingsEnabled'),
      startScreenSharing: bool('startScreenSharing'),
      hideParticipantsStats: bool('hideParticipantsStats'),
      enableScreenshotCapture: bool('enableScreenshotCapture'),
      channelLastN,
      disableInviteFunctions: bool('disableInviteFunctions'),
      prejoinPageEnabled: bool('prejoinPageEnabled'),
      hideLogo: bool('hideLogo'),
      hideDesktopLink: bool('hideDesktopLink'),
    },
    toolbarButtons: TOOLBAR_BUTTONS.filter((b) => !hidden.has(b)),
    refused,
  };
}

/** The display name from first_name/last_name, if given. */
export function queryDisplayName(q: MeetingQuery): string | null {
  const name = [q.firstName, q.lastName].filter(Boolean).join(' ').trim();
  return name || null;
}
