import { useEffect, useMemo, useState } from 'react';
import { useParams, useSearch } from 'wouter';
import { useHere, useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { MEET_JOIN_DELAY_MS } from '@suite/contract/core';
import { useConfig } from '../../lib/config';
import { detectBrowser, isSupportedBrowser } from '../../lib/browser';
import { storageAvailable, STORAGE_KEYS, readJson, readString, remove, write } from '../../lib/storage';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { logger } from '../../lib/logger';
import { parseMeetingQuery, queryDisplayName } from './lib/query-options';
import { appDeepLink, jitsiRoomName, meetHost } from './lib/app-links';
import { externalApiUrl } from './lib/external-api';
import { pingMeetingSession } from './api/meeting-token';
import { currentIdentity, moderatorFromJwt, nameFromJwt, storedDisplayName, type Identity } from './lib/identity';
import type { ChosenDevices } from './lib/jitsi-options';
import { useMeetingToken } from './hooks/use-meeting-token';
import { RoomNotice } from './components/room-notice';
import { BlockedNotice, ErrorNotice, type Blocked } from './components/notices';
import { useDelay, useInvite } from './hooks/use-invite';
import { AppOffer } from './components/app-offer';
import { DeviceSetup, type SetupResult } from './components/device-setup';
import { MeetingRoom, type LeaveReason } from './components/meeting-room';
import { LeftPage } from './components/left-page';
import { Button } from '../../components/button';
import { MeetingNames } from './lib/meeting-title';
import { BrandLogo } from './components/room-bar';
import './meeting.css';

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
  const here = useHere();
  const navigate = useNavigate();
  const query = useMemo(() => parseMeetingQuery(search), [search]);
  const browser = useMemo(() => detectBrowser(), []);
  const remembered = useMemo(() => readJson<Remembered>(STORAGE_KEYS.skipDeviceReview), []);
  const [identity] = useState<Identity | null>(() => (storageAvailable() ? currentIdentity() : null));
  const [stage, setStage] = useState<Stage>(() => (browser.mobile ? 'appOffer' : remembered ? 'joining' : 'setup'));
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

  const invite = useInvite(roomName, Boolean(blocked || query.jwt));
  // An untitled meeting reads as its host's ("Ada's meeting"), never as its id; a `jwt` link's room is not
  // ours to look up and keeps its name.
  const meetingName =
    invite.state !== 'ok' || query.jwt
      ? roomName
      : invite.title || (invite.hostName ? t('panel.untitledOf', { name: invite.hostName }) : t('panel.untitled'));
  const names = useMemo(() => ({ app: appName, meeting: meetingName }), [appName, meetingName]);

  // Nobody yet: the guest form first, then back here (vc_link).
  const needsGuest = !blocked && invite.state === 'ok' && !identity && !query.jwt;
  useEffect(() => {
    if (needsGuest) {
      navigate(`${PATHS.guest}?vc_link=${encodeURIComponent(here)}`, { replace: true });
    }
  }, [needsGuest, navigate, here]);

  const tokenState = useMeetingToken(
    roomName,
    stage === 'joining' && !query.jwt && invite.state === 'ok' ? identity : null,
    attempt,
    linkName,
  );
  const jwtReady = useDelay(Boolean(query.jwt) && stage === 'joining', MEET_JOIN_DELAY_MS, attempt);

  // A stale guestId (the guest record is gone): ask for the name again.
  useEffect(() => {
    if (
      tokenState.name === 'failed' &&
      tokenState.error instanceof ApiError &&
      tokenState.error.details?.some((d) => d.path === 'guest_id')
    ) {
      remove(STORAGE_KEYS.guestId);
      navigate(`${PATHS.guest}?vc_link=${encodeURIComponent(here)}`, { replace: true });
    }
  }, [tokenState, navigate, here]);

  const person = useMemo(() => {
    if (identity?.kind === 'guest')
      return { name: queryDisplayName(query) ?? readString(STORAGE_KEYS.guestName) ?? '', editable: true };
    const name =
      queryDisplayName(query) ?? (identity ? storedDisplayName() : query.jwt ? nameFromJwt(query.jwt) : null);
    return name ? { name, editable: false } : null;
  }, [identity, query]);

  const inviteLink = `${window.location.origin}/meet/${encodeURIComponent(roomName)}`;
  const homeUrl = identity?.kind === 'user' ? config.mainAppUrl : null;

  const content = (() => {
    if (blocked) return <BlockedNotice reason={blocked} />;
    if (invite.state === 'checking' || needsGuest) return <RoomNotice title={t('checking')} busy />;
    if (invite.state === 'error') return <ErrorNotice code={invite.code} onRetry={() => window.location.reload()} />;
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
          onContinue={() => setStage(remembered ? 'joining' : 'setup')}
        />
      );
    }
    if (stage === 'setup') {
      const desktopApp = !browser.mobile && query.meeting.hideDesktopLink !== true;
      return (
        <DeviceSetup
          desktopAppLink={desktopApp ? appDeepLink(browser, meetHost(config.meetDomain!), roomName, jaasAppId) : null}
          meetingName={meetingName}
          person={person}
          startMuted={{
            audio: query.meeting.startWithAudioMuted === true,
            video: query.meeting.startWithVideoMuted === true,
          }}
          onDone={(result: SetupResult) => {
            if (result.skipNextTime && result.devices)
              write(STORAGE_KEYS.skipDeviceReview, { devices: result.devices });
            setMedia(result);
            setStage('joining');
          }}
        />
      );
    }
    const token = query.jwt
      ? jwtReady
        ? { token: query.jwt, moderator: moderatorFromJwt(query.jwt), room: jitsiRoomName(roomName, jaasAppId) }
        : null
      : tokenState.name === 'ready'
        ? tokenState.token
        : null;
    if (token) {
      return (
        <MeetingRoom
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
            setLeftReason(reason);
            setStage('left');
          }}
          onPing={onPing}
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
      return (
        <ErrorNotice
          code={tokenState.error instanceof ApiError ? tokenState.error.code : 'ERR_NETWORK'}
          onRetry={() => setAttempt((a) => a + 1)}
        />
      );
    }
    return (
      <RoomNotice
        title={tokenState.name === 'entering' || query.jwt ? t('entering') : t('connecting')}
        busy
        testId="meeting-entering"
      />
    );
  })();

  const inRoom = stage === 'joining' && (tokenState.name === 'ready' || (query.jwt && jwtReady));
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
