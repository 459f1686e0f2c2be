import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useParams, useSearch } from 'wouter';
import { useTranslation } from '../../lib/i18n-react';
import { MEET_JOIN_DELAY_MS } from '@suite/contract/core';
import { useConfig } from '../../lib/config';
import { detectBrowser, isSupportedBrowser } from '../../lib/browser';
import { storageAvailable, STORAGE_KEYS, readJson, readString, remove, write } from '../../lib/storage';
import { ApiError } from '../../lib/api-client';
import { logger } from '../../lib/logger';
import { parseMeetingQuery, queryDisplayName } from './lib/query-options';
import { appDeepLink, jitsiRoomName, meetHost } from './lib/app-links';
import { externalApiUrl } from './lib/external-api';
import { pingMeetingSession } from './api/meeting-token';
import { cancelLobbyRequest } from './api/lobby';
import { takeInviteToken } from './lib/invite-link';
import { leavePresence, reportPresence, type PresenceProof } from './api/presence';
import { currentIdentity, moderatorFromJwt, nameFromJwt, storedDisplayName, type Identity } from './lib/identity';
import type { ChosenDevices } from './lib/jitsi-options';
import { useMeetingToken } from './hooks/use-meeting-token';
import { RoomNotice } from './components/room-notice';
import { BlockedNotice, ErrorNotice, type Blocked } from './components/notices';
import { useDelay, useInvite } from './hooks/use-invite';
import { AppOffer } from './components/app-offer';
import { DeviceSetup, type JoinPhase, type MeetingState, type SetupResult } from './components/device-setup';
import type { LeaveReason } from './components/meeting-room';
import { LeftPage } from './components/left-page';
import { Button } from '../../components/button';
import { MeetingNames } from './lib/meeting-title';
import { useAdmittedSignal } from './hooks/use-admitted-signal';
import { registerGuest } from '../../lib/guest';
import { FramedDeadEnd } from '../../lib/page-not-found';
import { BrandLogo } from './components/room-bar';
import './meeting.css';

/**
 * The room (the IFrame API, its bar, keep-alive, recording) is not needed to paint the pre-join: its chunk
 * is fetched when the person presses Join (or joins straight away), during the token request and the 2 s
 * of 'entering', and the room opens once both are there (no Suspense: nothing waits on a timer).
 */
const loadRoom = () => import('./components/meeting-room');
type Room = Awaited<ReturnType<typeof loadRoom>>['MeetingRoom'];

type Stage = 'appOffer' | 'setup' | 'joining' | 'left';
interface Remembered {
  devices: ChosenDevices;
}

/** `/meet/{roomName}`: checks, app offer, device setup, token (waiting for host), entering, room, left. */
export default function MeetingPage() {
  const { t } = useTranslation('meeting');
  const config = useConfig();
  const { roomName = '' } = useParams();
  const search = useSearch();
  const query = useMemo(() => parseMeetingQuery(search), [search]);
  const browser = useMemo(() => detectBrowser(), []);
  const remembered = useMemo(() => readJson<Remembered>(STORAGE_KEYS.skipDeviceReview), []);
  const [identity, setIdentity] = useState<Identity | null>(() => (storageAvailable() ? currentIdentity() : null));
  // Nobody yet (no session, no guestId, no jwt): the name and terms are asked on the pre-join, never skipped.
  const skipSetup = Boolean(remembered && (identity || query.jwt));
  const [stage, setStage] = useState<Stage>(() => (browser.mobile ? 'appOffer' : skipSetup ? 'joining' : 'setup'));
  /** The pre-join was shown: it stays on screen (self-view, toggles, lists) until the room opens. */
  const [setupShown, setSetupShown] = useState(false);
  /** A new pre-join (a stale guestId: the guest gives the name again). */
  const [setupKey, setSetupKey] = useState(0);
  const [media, setMedia] = useState<{
    devices: ChosenDevices | null;
    spectator: boolean;
    muted: SetupResult['muted'] | null;
    name: string | null;
  }>({ devices: remembered?.devices ?? null, spectator: false, muted: null, name: null });
  const [attempt, setAttempt] = useState(0);
  const [leftReason, setLeftReason] = useState<LeaveReason>('left');

  const blocked = useMemo<Blocked | null>(
    () =>
      !storageAvailable()
        ? 'storage'
        : !config.meetDomain
          ? 'notConfigured'
          : !isSupportedBrowser(browser)
            ? 'unsupported'
            : null,
    [config.meetDomain, browser],
  );
  const appName = query.ui.appName ?? config.appTitle;
  // The name a guest typed on the pre-join screen wins over the link's (first_name/last_name).
  const linkName = media.name ?? queryDisplayName(query);
  // 8x8 JaaS: room, script and app links live under the app id.
  const jaasAppId = config.jaasAppId ?? null;
  const onPing = useMemo(
    () => (identity && !query.jwt ? () => pingMeetingSession(roomName, identity) : null),
    [identity, query.jwt, roomName],
  );

  useEffect(() => {
    if (query.refused.length) logger.warn('meeting query parameters refused', { refused: query.refused });
  }, [query.refused]);

  const invite = useInvite(roomName, Boolean(blocked || query.jwt), stage === 'setup');
  // An untitled meeting reads as its host's ("Ada's meeting"), never as its id; a `jwt` link's room is not
  // ours to look up and keeps its name.
  const meetingName =
    invite.state !== 'ok' || query.jwt
      ? roomName
      : invite.title || (invite.hostName ? t('panel.untitledOf', { name: invite.hostName }) : t('panel.untitled'));
  const newGuest = !identity && !query.jwt;
  // The line next to Join: only what the server said (a guest always waits in the lobby until the host is in).
  const meetingState: MeetingState =
    invite.state !== 'ok' || !invite.status
      ? null
      : invite.status === 'started'
        ? 'started'
        : identity?.kind === 'user'
          ? invite.isHost
            ? 'host'
            : 'notStarted'
          : 'lobby';

  // An invitee's mailed link: lets them past the lobby (read once, then gone from the address bar).
  const [inviteToken] = useState(() => takeInviteToken(roomName));
  const tokenState = useMeetingToken(
    roomName,
    stage === 'joining' && !query.jwt && invite.state === 'ok' ? identity : null,
    attempt,
    linkName,
    inviteToken,
  );
  const jwtReady = useDelay(Boolean(query.jwt) && stage === 'joining', MEET_JOIN_DELAY_MS, attempt);

  // A stale guestId (the guest record is gone): ask for the name again, on the pre-join.
  const staleGuest =
    tokenState.name === 'failed' &&
    tokenState.error instanceof ApiError &&
    Boolean(tokenState.error.details?.some((d) => d.path === 'guest_id'));
  useEffect(() => {
    if (!staleGuest) return;
    remove(STORAGE_KEYS.guestId);
    setIdentity(null);
    setSetupKey((k) => k + 1);
    setStage('setup');
  }, [staleGuest]);

  const [room, setRoom] = useState<{ Room: Room } | { failed: true } | null>(null);
  useEffect(() => {
    if (stage !== 'joining' || room) return;
    loadRoom().then(
      (module) => setRoom({ Room: module.MeetingRoom }),
      () => setRoom({ failed: true }),
    );
  }, [stage, room]);
  const Room = room && 'Room' in room ? room.Room : null;
  const token = query.jwt
    ? jwtReady
      ? { token: query.jwt, moderator: moderatorFromJwt(query.jwt), room: jitsiRoomName(roomName, jaasAppId) }
      : null
    : tokenState.name === 'ready'
      ? tokenState.token
      : null;
  const inRoom = stage === 'joining' && Boolean(token && Room);
  // Our own rooms only (a `jwt` link's token is not ours): the session, or this room's meeting token for a guest.
  const presenceToken = token && !query.jwt ? token.token : null;
  const presence = useMemo(() => {
    if (!identity || !presenceToken) return null;
    const proof: PresenceProof =
      identity.kind === 'user' ? { kind: 'user' } : { kind: 'guest', meetingToken: presenceToken };
    return { beat: () => reportPresence(roomName, proof), leave: () => leavePresence(roomName, proof) };
  }, [identity, presenceToken, roomName]);

  const attention = useAdmittedSignal(tokenState.name, t('admitted'));
  const names = useMemo(() => ({ app: appName, meeting: meetingName, attention }), [appName, meetingName, attention]);

  const person = useMemo(() => {
    if (identity?.kind === 'guest')
      return { name: queryDisplayName(query) ?? readString(STORAGE_KEYS.guestName) ?? '', editable: true };
    const name =
      queryDisplayName(query) ?? (identity ? storedDisplayName() : query.jwt ? nameFromJwt(query.jwt) : null);
    return name ? { name, editable: false } : null;
  }, [identity, query]);

  const inviteLink = `${window.location.origin}/meet/${encodeURIComponent(roomName)}`;
  const homeUrl = identity?.kind === 'user' ? config.mainAppUrl : null;

  // A page that cannot become a meeting any more is shown inside the shared frame (its footer and language
  // switch) in this page's place; Try again there loads the page anew.
  const deadEnd = (page: ReactNode): never => {
    throw new FramedDeadEnd(<MeetingNames.Provider value={names}>{page}</MeetingNames.Provider>);
  };
  const reload = () => window.location.reload();
  const content = (() => {
    if (blocked) return deadEnd(<BlockedNotice reason={blocked} />);
    if (invite.state === 'checking' || (staleGuest && stage !== 'setup'))
      return <RoomNotice title={t('checking')} busy />;
    if (invite.state === 'error') return deadEnd(<ErrorNotice code={invite.code} onRetry={reload} />);
    if (stage === 'left') {
      return (
        <LeftPage
          reason={leftReason}
          homeUrl={homeUrl}
          onRejoin={() => {
            setAttempt((a) => a + 1);
            setStage('joining');
          }}
        />
      );
    }
    if (stage === 'appOffer') {
      return (
        <AppOffer
          info={browser}
          appName={appName}
          deepLink={appDeepLink(browser, meetHost(config.meetDomain!), roomName, jaasAppId)}
          onContinue={() => setStage(skipSetup ? 'joining' : 'setup')}
        />
      );
    }
    // The pre-join, and after Join the same card while the token is asked for and the host awaited.
    // Asking to join keeps the pre-join card (preview, devices) even when the review was skipped.
    const phase: JoinPhase | null =
      stage === 'setup'
        ? 'setup'
        : tokenState.name === 'lobby' && !inRoom
          ? 'lobby'
          : !setupShown || inRoom || (room && 'failed' in room)
            ? null
            : query.jwt || tokenState.name === 'ready'
              ? 'entering'
              : tokenState.name === 'failed'
                ? null
                : tokenState.name;
    if (phase) {
      const desktopApp = !browser.mobile && query.meeting.hideDesktopLink !== true;
      return (
        <DeviceSetup
          key={setupKey}
          phase={phase}
          desktopAppLink={desktopApp ? appDeepLink(browser, meetHost(config.meetDomain!), roomName, jaasAppId) : null}
          meetingName={meetingName}
          person={person}
          newGuest={newGuest}
          meetingState={meetingState}
          here={invite.state === 'ok' ? invite.participants : null}
          askToJoin={invite.state === 'ok' && invite.join === 'ask' && !query.jwt && !inviteToken}
          lobby={
            tokenState.name === 'lobby'
              ? {
                  status: tokenState.lobby,
                  onAskAgain: () => setAttempt((a) => a + 1),
                  onCancel: () => {
                    void cancelLobbyRequest(roomName).catch(() => undefined);
                    setSetupShown(false);
                    setStage('left');
                  },
                }
              : null
          }
          startMuted={{
            audio: query.meeting.startWithAudioMuted === true,
            video: query.meeting.startWithVideoMuted === true,
          }}
          onDone={async (result: SetupResult) => {
            if (newGuest) {
              // The guest gives the name once, here (spec §4: name and accepted terms → guestId).
              const guest = await registerGuest(result.name ?? '');
              setIdentity({ kind: 'guest', guestId: guest._id });
            }
            if (result.skipNextTime && result.devices)
              write(STORAGE_KEYS.skipDeviceReview, { devices: result.devices });
            setMedia(result);
            setSetupShown(true);
            setStage('joining');
          }}
          onUpdate={(result) => setMedia((known) => ({ ...known, devices: result.devices, muted: result.muted }))}
          onLeave={() => {
            // A rejoin asks for the token straight away (no second pre-join).
            setSetupShown(false);
            setStage('left');
          }}
        />
      );
    }
    // The room's code did not arrive (a dropped connection): say so, Try again reloads.
    if (room && 'failed' in room) return deadEnd(<ErrorNotice code="ERR_NETWORK" onRetry={reload} />);
    if (token && Room) {
      return (
        <Room
          key={attempt}
          meetOrigin={config.meetDomain!}
          scriptUrl={externalApiUrl(config.meetDomain!, jaasAppId)}
          jitsiRoom={token.room}
          jwt={token.token}
          moderator={token.moderator}
          bar={{
            query,
            spectator: media.spectator,
            mobile: browser.mobile,
            appTitle: appName,
            title: meetingName,
            inviteLink,
          }}
          devices={media.devices}
          startMuted={media.muted}
          displayName={storedDisplayName() ?? nameFromJwt(token.token)}
          linkName={linkName}
          hostRoomId={identity?.kind === 'user' && !query.jwt && token.moderator ? roomName : null}
          onLeft={(reason) => {
            setSetupShown(false);
            setLeftReason(reason);
            setStage('left');
          }}
          onPing={onPing}
          presence={presence}
        />
      );
    }
    if (tokenState.name === 'waiting') {
      return (
        <RoomNotice title={t('waiting.title')} busy testId="meeting-waiting">
          <p className="meet-notice__meeting">{meetingName}</p>
          <p>{t('waiting.text')}</p>
          <Button variant="secondary" onClick={() => setStage('left')}>
            {t('waiting.leave')}
          </Button>
        </RoomNotice>
      );
    }
    if (tokenState.name === 'failed' && !query.jwt) {
      return deadEnd(
        <ErrorNotice
          code={tokenState.error instanceof ApiError ? tokenState.error.code : 'ERR_NETWORK'}
          onRetry={reload}
        />,
      );
    }
    return (
      <RoomNotice
        title={
          tokenState.name === 'entering' || tokenState.name === 'ready' || query.jwt ? t('entering') : t('connecting')
        }
        busy
        testId="meeting-entering"
      />
    );
  })();

  return (
    <MeetingNames.Provider value={names}>
      {inRoom ? (
        <div className="frame meet--room">{content}</div>
      ) : (
        <div className="frame">
          {query.meeting.hideLogo ? null : (
            <header className="meet__header">
              <BrandLogo query={query} appName={appName} />
            </header>
          )}
          <main className="meet__main">{content}</main>
        </div>
      )}
    </MeetingNames.Provider>
  );
}
