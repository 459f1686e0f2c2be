import type { ToolbarButton } from '@suite/contract/core';
import type { MeetingQuery } from './query-options';
import { queryDisplayName } from './query-options';

/** Buttons that need a microphone or a camera: a spectator (no devices) does not get them. */
const DEVICE_BUTTONS: readonly ToolbarButton[] = ['microphone', 'camera', 'desktop', 'select-background'];

/**
 * The controls our room bar offers (room-bar.tsx): Jitsi's toolbar leaves them out, so that the room has one
 * set of controls and not two toolbars saying the same thing. Ours stay because leaving is ours to run
 * (one click to the left page, "End for everyone" through our server so that newcomers wait for the host
 * again); Jitsi keeps the buttons we do not repeat (chat, raise hand, tile view, settings…).
 */
const ROOM_BAR_BUTTONS: readonly ToolbarButton[] = ['microphone', 'camera', 'desktop', 'invite', 'hangup'];

/** Device labels chosen in our device setup (the IFrame API `devices` option takes labels). */
export interface ChosenDevices {
  audioInput?: string;
  audioOutput?: string;
  videoInput?: string;
}

export interface JitsiOptions {
  roomName: string;
  jwt?: string;
  lang: string;
  width: string;
  height: string;
  parentNode: HTMLElement;
  configOverwrite: Record<string, unknown>;
  interfaceConfigOverwrite: Record<string, unknown>;
  userInfo: { displayName?: string; email?: string };
  devices?: ChosenDevices;
}

// Join/leave notices as Jitsi names them (lang/main.json notify.*), silenced by DISABLE_JOIN_LEAVE_NOTIFICATIONS.
const JOIN_LEAVE_NOTIFICATIONS = [
  'notify.connectedOneMember',
  'notify.connectedTwoMembers',
  'notify.connectedThreeMembers',
  'notify.leftOneMember',
  'notify.leftTwoMembers',
  'notify.leftThreeMembers',
];

const set = <T>(target: Record<string, unknown>, key: string, value: T | null | undefined) => {
  if (value !== null && value !== undefined) target[key] = value;
};

/**
 * What current Jitsi accepts from an embedder (config and interface-config whitelists): each §2 parameter
 * goes where Jitsi reads it today; the ones Jitsi no longer takes from an embedder are applied by our page
 * (see docs/jitsi-mapping.md).
 */
export function buildJitsiOptions(input: {
  roomName: string;
  jwt?: string | undefined;
  lang: string;
  parentNode: HTMLElement;
  query: MeetingQuery;
  devices: ChosenDevices | null;
  spectator: boolean;
  /** The pre-join toggles; they win over the link's startWithAudioMuted / startWithVideoMuted. */
  startMuted?: { audio: boolean; video: boolean } | null | undefined;
  fallbackName?: string | null | undefined;
}): JitsiOptions {
  const { query: q } = input;
  const m = q.meeting;
  // Our bar's support link stands for Jitsi's help button when the link gives one (SUPPORT_URL).
  const ours: readonly ToolbarButton[] = q.ui.supportUrl ? [...ROOM_BAR_BUTTONS, 'help'] : ROOM_BAR_BUTTONS;
  const toolbarButtons = q.toolbarButtons.filter(
    (b) => !ours.includes(b) && !(input.spectator && DEVICE_BUTTONS.includes(b)),
  );
  const config: Record<string, unknown> = {
    // Our page already ran device setup and the app offer: Jitsi's own versions would ask twice.
    prejoinConfig: { enabled: m.prejoinPageEnabled ?? false },
    prejoinPageEnabled: m.prejoinPageEnabled ?? false,
    // One deeplinking object (disableDeepLinking is deprecated): our app offer replaces Jitsi's, and
    // hideDesktopLink also turns Jitsi's desktop-app link off.
    deeplinking: m.hideDesktopLink ? { disabled: true, desktop: { enabled: false } } : { disabled: true },
    toolbarButtons,
  };
  // Whitelisted for embedders again (isEmbeddedConfigWhitelist); http(s) only, checked by the parser.
  set(config, 'defaultLogoUrl', q.ui.defaultLogoUrl);
  set(config, 'startWithAudioMuted', m.startWithAudioMuted);
  set(config, 'startWithVideoMuted', m.startWithVideoMuted);
  if (input.startMuted) {
    config.startWithAudioMuted = input.startMuted.audio;
    config.startWithVideoMuted = input.startMuted.video;
  }
  if (m.liveStreamingEnabled !== null) {
    config.liveStreaming = { enabled: m.liveStreamingEnabled };
    config.liveStreamingEnabled = m.liveStreamingEnabled;
  }
  if (m.fileRecordingsEnabled !== null) config.recordingService = { enabled: m.fileRecordingsEnabled };
  set(config, 'startScreenSharing', m.startScreenSharing);
  set(config, 'hideParticipantsStats', m.hideParticipantsStats);
  if (m.enableScreenshotCapture !== null) config.screenshotCapture = { enabled: m.enableScreenshotCapture };
  set(config, 'channelLastN', m.channelLastN);
  set(config, 'disableInviteFunctions', m.disableInviteFunctions);
  if (q.ui.toolbarAlwaysVisible !== null) config.toolbarConfig = { alwaysVisible: q.ui.toolbarAlwaysVisible };
  if (q.ui.disableJoinLeaveNotifications) {
    config.disabledNotifications = JOIN_LEAVE_NOTIFICATIONS;
    config.disableJoinLeaveSounds = true;
  }
  if (input.spectator) {
    // No devices: join to watch and listen only, without Jitsi asking for a microphone or camera.
    Object.assign(config, {
      startWithAudioMuted: true,
      startWithVideoMuted: true,
      disableInitialGUM: true,
      startSilent: false,
    });
  }

  const ui: Record<string, unknown> = {};
  set(ui, 'DISABLE_VIDEO_BACKGROUND', q.ui.disableVideoBackground);
  set(ui, 'DISABLE_JOIN_LEAVE_NOTIFICATIONS', q.ui.disableJoinLeaveNotifications);
  set(ui, 'TOOLBAR_ALWAYS_VISIBLE', q.ui.toolbarAlwaysVisible);
  // Older deployments still read the toolbar from interface config.
  ui.TOOLBAR_BUTTONS = toolbarButtons;

  const displayName = queryDisplayName(q) ?? input.fallbackName ?? undefined;
  const userInfo: JitsiOptions['userInfo'] = {};
  if (displayName) userInfo.displayName = displayName;
  if (q.email) userInfo.email = q.email;

  return {
    roomName: input.roomName,
    ...(input.jwt ? { jwt: input.jwt } : {}),
    lang: input.lang,
    width: '100%',
    height: '100%',
    parentNode: input.parentNode,
    configOverwrite: config,
    interfaceConfigOverwrite: ui,
    userInfo,
    ...(input.devices && !input.spectator ? { devices: input.devices } : {}),
  };
}

/** Jitsi's language codes: Brazilian Portuguese is `ptBR` there (spec §1: pt-BR for Portuguese browsers). */
export function jitsiLanguage(language: string): string {
  return language === 'pt' ? 'ptBR' : language;
}

/** Recording auto-start rule (spec §4): asked for, moderator, and file recording not disabled. */
export function shouldAutoRecord(q: MeetingQuery, moderator: boolean): boolean {
  return q.startRecording && moderator && q.meeting.fileRecordingsEnabled !== false;
}
