import { useEffect, useRef, useState } from 'react';
import type { LobbyRequest } from '@suite/contract';
import { useTranslation } from '../../../lib/i18n-react';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../components/button';
import { admitEveryone, decideLobbyRequest, watchLobbyRequests } from '../api/lobby';
import { setMeetingAccess } from '../api/my-videoconferences';
import { AccessSelect } from './access-select';
import { MeetingPeople } from './meeting-people';
import type { MeetingAccess } from '@suite/contract';
import { WithDomain } from '../../../components/address';

export interface LobbyRequestsProps {
  roomName: string;
  /** How many people are asking now (the room puts the count in the tab title). */
  onCount: (count: number) => void;
}

/** When they started waiting, as a clock time in the page's language ("10:42"). */
const clock = (since: string, language: string) =>
  new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(new Date(since));

/**
 * The host's and co-hosts' list of people asking to join (pushed by the server on every change, from
 * any instance): name, signed in or guest and their domain, since when; Admit, Deny, Admit all. A new
 * request plays a short chime and is announced to screen readers; nothing is shown while nobody asks.
 */
export function LobbyRequests({ roomName, onCount }: LobbyRequestsProps) {
  const { t, i18n } = useTranslation('meeting');
  const [requests, setRequests] = useState<LobbyRequest[]>([]);
  const [access, setAccess] = useState<MeetingAccess | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const known = useRef<Set<string>>(new Set());

  useEffect(
    () =>
      watchLobbyRequests(roomName, (list) => {
        const fresh = list.requests.filter((r) => !known.current.has(r.id));
        known.current = new Set(list.requests.map((r) => r.id));
        setRequests(list.requests);
        setAccess(list.access);
        if (fresh.length) {
          const [first] = fresh;
          setAnnounce(
            fresh.length === 1 && first
              ? t('lobby.host.arrived', { name: first.name })
              : t('lobby.host.arrivedMany', { count: fresh.length }),
          );
          void import('../lib/beep').then(({ chime }) => chime());
        }
      }),
    [roomName, t],
  );
  useEffect(() => onCount(requests.length), [requests.length, onCount]);

  const act = async (key: string, run: () => Promise<unknown>) => {
    setBusy(key);
    setProblem(null);
    try {
      await run();
    } catch (error) {
      // Someone else decided first, or the person left: the pushed list catches up by itself.
      if (!(error instanceof ApiError && error.code === 'ERR_LOBBY_REQUEST_NOT_FOUND')) {
        setProblem(
          error instanceof ApiError
            ? t(`errors:${error.code}`, { defaultValue: error.message })
            : t('lobby.host.failed'),
        );
      }
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <p className="visually-hidden" aria-live="polite" data-testid="lobby-announce">
        {announce}
      </p>
      {access && !requests.length ? (
        <div className="meet-lobby-access">
          <button
            type="button"
            className="meet-lobby-access__toggle"
            aria-expanded={settingsOpen}
            onClick={() => setSettingsOpen((open) => !open)}
          >
            {t('access.label')}: {t(`access.${access}`)}
          </button>
          {settingsOpen ? (
            <div className="meet-lobby-list meet-lobby-access__panel">
              <AccessSelect
                value={access}
                disabled={busy === 'access'}
                onChange={(level) =>
                  void act('access', async () => {
                    await setMeetingAccess(roomName, level);
                    setAccess(level);
                  })
                }
              />
              {problem ? (
                <p className="meet-lobby-list__problem" role="alert">
                  {problem}
                </p>
              ) : null}
              <MeetingPeople roomName={roomName} />
            </div>
          ) : null}
        </div>
      ) : null}
      {requests.length ? (
        <section className="meet-lobby-list" aria-labelledby="lobby-list-title" data-testid="lobby-requests">
          <div className="meet-lobby-list__head">
            <h2 id="lobby-list-title">{t('lobby.host.title', { count: requests.length })}</h2>
            {requests.length > 1 ? (
              <Button
                variant="secondary"
                loading={busy === 'all'}
                onClick={() => void act('all', () => admitEveryone(roomName))}
              >
                {t('lobby.host.admitAll')}
              </Button>
            ) : null}
          </div>
          <ul className="meet-lobby-list__items">
            {requests.map((r) => (
              <li key={r.id} className="meet-lobby-list__item" data-testid="lobby-request">
                <div className="meet-lobby-list__who">
                  <span className="meet-lobby-list__name">{r.name}</span>
                  <span className="meet-lobby-list__meta">
                    {r.signed_in ? (
                      <WithDomain text={t('lobby.host.signedIn', { domain: r.domain })} domain={r.domain} />
                    ) : (
                      t('lobby.host.guest')
                    )}{' '}
                    · {t('lobby.host.since', { time: clock(r.since, i18n.language) })}
                  </span>
                </div>
                <div className="meet-lobby-list__actions">
                  <Button
                    variant="secondary"
                    aria-label={t('lobby.host.denyName', { name: r.name })}
                    loading={busy === `deny:${r.id}`}
                    onClick={() => void act(`deny:${r.id}`, () => decideLobbyRequest(roomName, r.id, 'deny'))}
                  >
                    {t('lobby.host.deny')}
                  </Button>
                  <Button
                    aria-label={t('lobby.host.admitName', { name: r.name })}
                    loading={busy === `admit:${r.id}`}
                    onClick={() => void act(`admit:${r.id}`, () => decideLobbyRequest(roomName, r.id, 'admit'))}
                  >
                    {t('lobby.host.admit')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
          {problem ? (
            <p className="meet-lobby-list__problem" role="alert">
              {problem}
            </p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
