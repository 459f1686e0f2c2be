import { useCallback, useId, useState, type FormEvent } from 'react';
import { AUDIT_KINDS, type AuditEvent, type AuditKind } from '@suite/contract';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { TextField } from '../../../components/text-field';
import { useTranslation } from '../../../lib/i18n-react';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { exportAudit, listAudit, type AuditFilters } from '../api/audit';
import { usePaged } from '../hooks/use-paged';
import type { AdminContext } from '../lib/admin-context';
import { formatWhen } from '../lib/format';
import { MoreButton } from './more-button';

/** A day picked in a date field (the browser's local day) as the instant it starts; the end is the next day's start. */
const dayStart = (day: string, plusDays = 0): string | undefined => {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + plusDays).toISOString();
};

/** Saves a Blob under a name, as a download (the object URL is released once the click has taken it). */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A code this version has no words for yet, readable at least: "invite_resent" → "Invite resent". */
const readable = (code: string): string => {
  const words = code.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The words for an event's action and reason, in the UI language; never the stored code itself. */
function useAuditWords() {
  const { t } = useTranslation('admin');
  const { t: errors } = useTranslation('errors', { useSuspense: false });
  return {
    action: (event: AuditEvent) =>
      t(`audit.actions.${event.kind}.${event.action}`, { defaultValue: readable(event.action) }),
    reason: (event: AuditEvent, reason: string) =>
      // A refused sign-in keeps the error code it answered; an access request, the person's own words.
      event.kind === 'access_request'
        ? `“${reason}”`
        : reason.startsWith('ERR_')
          ? errors(reason, { defaultValue: readable(reason.replace(/^ERR_/, '')) })
          : t(`audit.reasons.${reason}`, { defaultValue: readable(reason) }),
  };
}

/**
 * The audit trail: every sign-in and failure, SSO failure, code mail, factor change, session ended,
 * administrator action, policy change and request of the domain, newest first, filtered by person, kind
 * and days; the same filters exported as CSV (the server streams it).
 */
export function AuditSection(context: AdminContext) {
  const { t } = useTranslation('admin');
  const words = useAuditWords();
  const { domain } = context;
  const id = useId();
  const [person, setPerson] = useState('');
  const [kind, setKind] = useState<AuditKind | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [filters, setFilters] = useState<AuditFilters>({});

  const fetchPage = useCallback(
    (cursor?: string) =>
      listAudit(domain, filters, cursor).then((page) => ({ items: page.events, next: page.next_cursor })),
    [domain, filters],
  );
  const { state, more, reload } = usePaged<AuditEvent>(fetchPage);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters({
      person: person.trim() || undefined,
      kind: kind || undefined,
      from: from ? dayStart(from) : undefined,
      to: to ? dayStart(to, 1) : undefined,
    });
  };

  const download = useFormSubmit({
    movesOn: false,
    send: async () => {
      const { blob, filename } = await exportAudit(domain, filters);
      saveFile(blob, filename ?? `audit-${domain}.csv`);
      context.announce(t('audit.exported'));
    },
  });

  return (
    <section className="card stack admin__section" aria-labelledby="audit-title">
      <div className="admin__head">
        <div>
          <h2 id="audit-title">{t('audit.title')}</h2>
          <p className="muted admin__intro">{t('audit.intro')}</p>
        </div>
        <Button variant="secondary" onClick={() => void download.run(null)} loading={download.busy}>
          {t('audit.export')}
        </Button>
      </div>
      {download.error !== null ? <Alert>{download.error}</Alert> : null}
      <form className="admin__audit-filters" onSubmit={apply} aria-label={t('audit.filters')}>
        <TextField
          label={t('audit.person')}
          name="person"
          type="search"
          autoComplete="off"
          maxLength={254}
          value={person}
          onChange={(e) => setPerson(e.target.value)}
        />
        <div className="field">
          <label className="field__label" htmlFor={`${id}-kind`}>
            {t('audit.kind')}
          </label>
          <select
            id={`${id}-kind`}
            className="admin__select"
            value={kind}
            onChange={(e) => setKind(e.target.value as AuditKind | '')}
          >
            <option value="">{t('audit.allKinds')}</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`audit.kinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label={t('audit.from')}
          name="from"
          type="date"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        />
        <TextField label={t('audit.to')} name="to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        <div className="admin__apply">
          <Button type="submit" variant="secondary">
            {t('audit.apply')}
          </Button>
        </div>
      </form>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={reload} />}
      {state.status === 'ready' && (
        <>
          {state.items.length === 0 ? (
            <p className="admin__none">{t('audit.none')}</p>
          ) : (
            <ol className="admin__list audit" aria-labelledby="audit-title">
              {state.items.map((event) => (
                <li key={event.id} className="admin__item audit__event">
                  <div className="audit__line">
                    <strong>{t(`audit.kinds.${event.kind}`)}</strong>
                    <span className="audit__action">{words.action(event)}</span>
                    <time className="muted audit__when" dateTime={event.at}>
                      {formatWhen(event.at, context.languageTag)}
                    </time>
                  </div>
                  <div className="audit__who">
                    {event.actor_email ? (
                      <span>
                        {t('audit.by')} <span className="admin__mono">{event.actor_email}</span>
                      </span>
                    ) : null}
                    {event.target_email && event.target_email !== event.actor_email ? (
                      <span>
                        {t('audit.about')} <span className="admin__mono">{event.target_email}</span>
                      </span>
                    ) : null}
                    {event.reason ? (
                      <span>
                        {t('audit.reason')} {words.reason(event, event.reason)}
                      </span>
                    ) : null}
                    {event.ip ? <span className="muted admin__mono">{event.ip}</span> : null}
                  </div>
                </li>
              ))}
            </ol>
          )}
          <MoreButton state={state} onMore={more} label={t('audit.more')} />
        </>
      )}
    </section>
  );
}
