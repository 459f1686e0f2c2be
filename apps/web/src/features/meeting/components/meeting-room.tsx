import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { SessionPingResponse } from '@suite/contract/core';
import { useDialog } from '../../../components/confirm-dialog';
import { logger } from '../../../lib/logger';
import { buildJitsiOptions, jitsiLanguage, shouldAutoRecord, type ChosenDevices } from '../lib/jitsi-options';
import { loadExternalApi, type JitsiApi } from '../lib/external-api';
import { meetHost } from '../lib/app-links';
import { HANGUP_FALLBACK_MS } from '../lib/timings';
import { endMeetingSession } from '../api/my-videoconferences';
import { useAutoRecording } from '../hooks/use-auto-recording';
import { useKeepAlive } from '../hooks/use-keep-alive';
import { useSessionPing } from '../hooks/use-session-ping';
import { usePresence, type PresenceReport } from '../hooks/use-presence';
import { trackPresence } from '../lib/presence';
import { KeepAliveDialog } from './keep-alive-dialog';
import { RoomBar, type RoomBarInfo } from './room-bar';
import { useMeetingTitle } from '../lib/meeting-title';
import { LobbyRequests } from './lobby-requests';
import '../../../components/destructive.css';

export type LeaveReason = 'left' | 'idle';

export interface MeetingRoomProps {
  meetOrigin: string;
  /** The IFrame API script (lib/external-api.ts externalApiUrl: JaaS serves it under the app id). */
  scriptUrl: string;
  /** Room name as the IFrame API wants it (JaaS: "<appId>/<room>"). */
  jitsiRoom: string;
  jwt: string;
  moderator: boolean;
  /** The link's options, the title, invite link and kind of visitor the room bar shows (and the room follows). */
  bar: RoomBarInfo;
  devices: ChosenDevices | null;
  /** Microphone / camera off as chosen on the pre-join screen; null → the link's startWith…Muted. */
  startMuted: { audio: boolean; video: boolean } | null;
  displayName: string | null;
  /** The name the link asked for (first_name/last_name): set again after joining, as Jitsi may prefer the token's. */
  linkName: string | null;
  /** Signed-in host of this conference: may end the session for everyone (our id, not the JaaS-prefixed room). */
  hostRoomId: string | null;
  onLeft: (reason: LeaveReason) => void;
  /** Tells our server someone is still in the room; null when the room is not ours to keep (a `jwt` link). */
  onPing: (() => Promise<SessionPingResponse>) | null;
  /** Tells our server who is in the room (the pre-join's "Ada is here"); null for a `jwt` link. */
  presence: PresenceReport | null;
}

/** The joined room: loads external_api.js, embeds Jitsi, and runs leave, recording and keep-alive. */
export function MeetingRoom(props: MeetingRoomProps) {
  const { t, i18n } = useTranslation('meeting');
  const dialog = useDialog();
  // The host's and co-hosts' tab says how many people are asking to join.
  const [asking, setAsking] = useState(0);
  useMeetingTitle(asking ? t('lobby.host.titleCount', { count: asking }) : null);
  const container = useRef<HTMLDivElement>(null);
  const [api, setApi] = useState<JitsiApi | null>(null);
  const [joined, setJoined] = useState(false);
  const joinedRef = useRef(false);
  const [failed, setFailed] = useState(false);
  const [others, setOthers] = useState(0);
  const [leaving, setLeaving] = useState(false);
  const [muted, setMuted] = useState({
    audio: props.bar.spectator || (props.startMuted?.audio ?? props.bar.query.meeting.startWithAudioMuted === true),
    video: props.bar.spectator || (props.startMuted?.video ?? props.bar.query.meeting.startWithVideoMuted === true),
  });
  const leftRef = useRef(false);
  const propsRef = useRef(props);
  propsRef.current = props;

  const finish = useCallback((reason: LeaveReason) => {
    if (leftRef.current) return;
    leftRef.current = true;
    propsRef.current.onLeft(reason);
  }, []);

  useEffect(() => {
    let disposed = false;
    let instance: JitsiApi | null = null;
    let detachPresence: (() => void) | null = null;
    const p = propsRef.current;
    loadExternalApi(p.scriptUrl)
      .then((JitsiMeetExternalAPI) => {
        if (disposed || !container.current) return;
        const options = buildJitsiOptions({
          roomName: p.jitsiRoom,
          jwt: p.jwt,
          lang: jitsiLanguage(i18n.resolvedLanguage ?? 'en'),
          parentNode: container.current,
          query: p.bar.query,
          devices: p.devices,
          spectator: p.bar.spectator,
          startMuted: p.startMuted,
          fallbackName: p.displayName,
        });
        instance = new JitsiMeetExternalAPI(meetHost(p.meetOrigin), {
          ...options,
          noSSL: p.meetOrigin.startsWith('http:'),
        });
        // Before anything else: the people already in the room are announced as we join.
        detachPresence = trackPresence(instance, setOthers);
        instance.on('videoConferenceJoined', () => {
          joinedRef.current = true;
          setJoined(true);
          // Jitsi takes the display name from the token; the link's name is in our tokens, not in a `jwt` one.
          if (p.linkName) instance?.executeCommand('displayName', p.linkName);
          if (p.bar.query.avatar) instance?.executeCommand('avatarUrl', p.bar.query.avatar);
          if (p.bar.query.email) instance?.executeCommand('email', p.bar.query.email);
        });
        instance.on('errorOccurred', (e: { name?: string; type?: string; isFatal?: boolean } | undefined) => {
          logger.warn('meeting error', { name: e?.name, type: e?.type, fatal: e?.isFatal });
          // A fatal error (e.g. Jitsi refused the token) means this attempt will never join: say so
          // instead of "Connecting…" forever, and offer to try again (spec §8: error connecting).
          if (e?.isFatal && !joinedRef.current) {
            setFailed(true);
            dialog.openDialog({
              title: t('connectError.title'),
              text: t('connectError.text'),
              primaryLabel: t('tryAgain'),
              onPrimary: () => window.location.reload(),
            });
          }
        });
        instance.on('videoConferenceLeft', () => finish('left'));
        instance.on('readyToClose', () => finish('left'));
        instance.on('audioMuteStatusChanged', (e: { muted: boolean }) => setMuted((m) => ({ ...m, audio: e.muted })));
        instance.on('videoMuteStatusChanged', (e: { muted: boolean }) => setMuted((m) => ({ ...m, video: e.muted })));
        setApi(instance);
      })
      .catch((error: unknown) => {
        if (disposed) return;
        logger.warn('meeting script failed to load', { error: String(error) });
        dialog.openDialog({
          title: t('loadError.title'),
          text: t('loadError.text'),
          primaryLabel: t('tryAgain'),
          onPrimary: () => window.location.reload(),
        });
      });
    return () => {
      disposed = true;
      detachPresence?.();
      instance?.dispose();
    };
    // The room is created once per mount; later prop changes must not rebuild the conference.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const hangup = useCallback(
    (reason: LeaveReason) => {
      api?.executeCommand('hangup');
      // Jitsi answers with videoConferenceLeft; if it never does, leave anyway.
      window.setTimeout(() => finish(reason), HANGUP_FALLBACK_MS);
      if (reason === 'idle') finish('idle');
    },
    [api, finish],
  );

  useAutoRecording(api, joined && shouldAutoRecord(props.bar.query, props.moderator), () =>
    dialog.openDialog({
      title: t('recordingError.title'),
      text: t('recordingError.text'),
      primaryLabel: t('reload'),
      secondaryLabel: t('close'),
      onPrimary: () => window.location.reload(),
    }),
  );
  const ping = props.onPing;
  useSessionPing(joined && !leaving, ping);
  usePresence(joined && !leaving, props.presence);
  const keepAlive = useKeepAlive(
    joined,
    others === 0,
    () => hangup('idle'),
    useCallback(() => void ping?.().catch(() => undefined), [ping]),
  );

  // One click: the left page's Rejoin is the undo, so there is nothing to confirm.
  const leave = () => {
    setLeaving(true);
    hangup('left');
  };

  const confirmEndForAll = async () => {
    const yes = await dialog.confirm({
      title: t('endForAll.title'),
      text: t('endForAll.text'),
      primaryLabel: t('endForAll.confirm'),
      secondaryLabel: t('leave.stay'),
      variant: 'danger',
    });
    if (!yes || !props.hostRoomId) return;
    setLeaving(true);
    // Jitsi ends the conference for every participant; our server makes newcomers wait for the host again.
    api?.executeCommand('endConference');
    await endMeetingSession(props.hostRoomId).catch((error: unknown) =>
      logger.warn('could not end the session', { error: String(error) }),
    );
    hangup('left');
  };

  return (
    <div className="meet-room">
      <RoomBar
        {...props.bar}
        joined={joined}
        audioMuted={muted.audio}
        videoMuted={muted.video}
        onCommand={(command) => api?.executeCommand(command)}
        onLeave={leave}
        canEndForAll={props.moderator && props.hostRoomId !== null}
        onEndForAll={() => void confirmEndForAll()}
      />
      <div className="meet-room__stage">
        {!joined && !failed ? (
          <p className="meet-room__loading" role="status">
            <span className="meet-spinner" aria-hidden="true" /> {t('room.connecting')}
          </p>
        ) : null}
        <div ref={container} className="meet-room__frame" data-testid="jitsi-container" />
        {props.moderator && props.hostRoomId ? <LobbyRequests roomName={props.hostRoomId} onCount={setAsking} /> : null}
      </div>
      <KeepAliveDialog secondsLeft={keepAlive.secondsLeft} onKeep={keepAlive.keep} onLeave={() => hangup('left')} />
    </div>
  );
}
