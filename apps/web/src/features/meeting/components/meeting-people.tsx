import { useEffect, useState, type FormEvent } from 'react';
import { CohostListSchema, InviteeListSchema, LOBBY_API, type Cohost, type Invitee } from '@suite/contract';
import { useTranslation } from '../../../lib/i18n-react';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';

type Lists = { invitees: Invitee[]; cohosts: Cohost[] };

const load = async (id: string): Promise<Lists> => {
  const [invitees, cohosts] = await Promise.all([
    apiRequest({ path: LOBBY_API.invitees, params: { id }, auth: true, schema: InviteeListSchema }),
    apiRequest({ path: LOBBY_API.cohosts, params: { id }, auth: true, schema: CohostListSchema }),
  ]);
  return { invitees: invitees.data, cohosts: cohosts.data };
};

/**
 * The host's people of a meeting (in the room's access panel): invitees — each mailed a personal link
 * past the lobby; who joined; Revoke — and co-hosts, named by address. Nothing is shown to a co-host
 * (the server answers 404: only the host manages them).
 */
export function MeetingPeople({ roomName }: { roomName: string }) {
  const { t } = useTranslation(['meeting', 'errors']);
  const [lists, setLists] = useState<Lists | null>(null);
  const [invite, setInvite] = useState('');
  const [cohost, setCohost] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    load(roomName).then(setLists, () => setLists(null));
  }, [roomName]);

  const run = async (change: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      await change();
      setLists(await load(roomName));
      return true;
    } catch (error) {
      setProblem(
        error instanceof ApiError ? t(`errors:${error.code}`, { defaultValue: error.message }) : t('lobby.host.failed'),
      );
      return false;
    } finally {
      setBusy(false);
    }
  };
  const submitInvite = async (event: FormEvent) => {
    event.preventDefault();
    const emails = invite.split(/[\s,;]+/).filter(Boolean);
    if (!emails.length) return;
    const done = await run(() =>
      apiRequest({ method: 'POST', path: LOBBY_API.invitees, params: { id: roomName }, auth: true, body: { emails } }),
    );
    if (done) setInvite('');
  };
  const submitCohost = async (event: FormEvent) => {
    event.preventDefault();
    if (!cohost.trim()) return;
    const done = await run(() =>
      apiRequest({
        method: 'POST',
        path: LOBBY_API.cohosts,
        params: { id: roomName },
        auth: true,
        body: { email: cohost.trim() },
      }),
    );
    if (done) setCohost('');
  };

  if (!lists) return null;
  return (
    <div className="meet-people" data-testid="meeting-people">
      <form className="meet-people__form" onSubmit={(e) => void submitInvite(e)}>
        <TextField label={t('people.invite')} value={invite} onChange={(e) => setInvite(e.target.value)} />
        <Button type="submit" variant="secondary" loading={busy}>
          {t('people.send')}
        </Button>
      </form>
      {lists.invitees.length ? (
        <ul className="meet-people__list" aria-label={t('people.invitees')}>
          {lists.invitees.map((i) => (
            <li key={i.id}>
              <span className="meet-people__who">{i.email}</span>
              <span className="meet-people__state">
                {i.revoked ? t('people.revoked') : i.joined_at ? t('people.joined') : t('people.invited')}
              </span>
              {!i.revoked ? (
                <Button
                  variant="link"
                  aria-label={t('people.revokeName', { email: i.email })}
                  onClick={() =>
                    void run(() =>
                      apiRequest({
                        method: 'DELETE',
                        path: LOBBY_API.invitee,
                        params: { id: roomName, inviteeId: i.id },
                        auth: true,
                      }),
                    )
                  }
                >
                  {t('people.revoke')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <form className="meet-people__form" onSubmit={(e) => void submitCohost(e)}>
        <TextField label={t('people.cohost')} type="email" value={cohost} onChange={(e) => setCohost(e.target.value)} />
        <Button type="submit" variant="secondary" loading={busy}>
          {t('people.add')}
        </Button>
      </form>
      {lists.cohosts.length ? (
        <ul className="meet-people__list" aria-label={t('people.cohosts')}>
          {lists.cohosts.map((c) => (
            <li key={c.id}>
              <span className="meet-people__who">{c.name || c.email}</span>
              <Button
                variant="link"
                aria-label={t('people.removeName', { name: c.name || c.email })}
                onClick={() =>
                  void run(() =>
                    apiRequest({
                      method: 'DELETE',
                      path: LOBBY_API.cohost,
                      params: { id: roomName, userId: c.id },
                      auth: true,
                    }),
                  )
                }
              >
                {t('people.remove')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? (
        <p className="meet-lobby-list__problem" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
