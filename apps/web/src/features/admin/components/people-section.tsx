import { useCallback, useId, useState, type FormEvent } from 'react';
import type { Person, PersonStatus } from '@suite/contract';
import { Button } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { TextField } from '../../../components/text-field';
import { useTranslation } from '../../../lib/i18n-react';
import { listPeople } from '../api/people';
import { usePaged } from '../hooks/use-paged';
import type { AdminContext } from '../lib/admin-context';
import { InviteForm } from './invite-form';
import { MoreButton } from './more-button';
import { PersonItem } from './person-item';

/** The filters, in the order shown; "all" sends none. */
const FILTERS = ['all', 'active', 'deactivated', 'invited', 'waiting'] as const satisfies readonly (
  PersonStatus | 'all'
)[];
type Filter = (typeof FILTERS)[number];

/**
 * People of the domain: search by name or address, a filter by state, a page at a time ("Show more":
 * the server pages by key, so the 5,000th person comes as fast as the first), each with their sign-in
 * methods, sessions and last sign-in, and the actions their state allows; invitations by a pasted list.
 */
export function PeopleSection(context: AdminContext) {
  const { t } = useTranslation('admin');
  const { domain } = context;
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const filterName = useId();

  const fetchPage = useCallback(
    (cursor?: string) =>
      listPeople(domain, { q: query, status: filter === 'all' ? undefined : filter, cursor }).then((page) => ({
        items: page.people,
        next: page.next_cursor,
      })),
    [domain, query, filter],
  );
  const { state, more, update, reload } = usePaged<Person>(fetchPage);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQuery(typed.trim());
  };

  return (
    <section className="card stack admin__section" aria-labelledby="people-title">
      <div>
        <h2 id="people-title">{t('people.title')}</h2>
        <p className="muted admin__intro">{t('people.intro')}</p>
      </div>
      <form role="search" className="admin__search" onSubmit={search} aria-label={t('people.searchLabel')}>
        <TextField
          label={t('people.search')}
          type="search"
          name="q"
          value={typed}
          maxLength={100}
          autoComplete="off"
          onChange={(e) => setTyped(e.target.value)}
        />
        <Button type="submit" variant="secondary">
          {t('people.searchButton')}
        </Button>
      </form>
      <fieldset className="admin__filters">
        <legend className="admin__legend">{t('people.filter')}</legend>
        {FILTERS.map((f) => (
          <label key={f} className="admin__chip">
            <input type="radio" name={filterName} value={f} checked={filter === f} onChange={() => setFilter(f)} />
            <span>{t(`people.filters.${f}`)}</span>
          </label>
        ))}
      </fieldset>
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={reload} />}
      {state.status === 'ready' && (
        <>
          {state.items.length === 0 ? (
            <p className="admin__none">{query ? t('people.noMatch', { query }) : t('people.none')}</p>
          ) : (
            <ul className="admin__list" aria-labelledby="people-title">
              {state.items.map((person) => (
                <PersonItem
                  key={person.id}
                  person={person}
                  context={context}
                  onChanged={(changed) => update((p) => p.id === changed.id, changed)}
                />
              ))}
            </ul>
          )}
          <MoreButton state={state} onMore={more} label={t('people.more')} />
        </>
      )}
      <InviteForm context={context} onInvited={reload} />
    </section>
  );
}
