import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n-react';
import { MAX_TEAMMATES, emailDomain } from '@suite/contract/core';
import { ApiError } from '../../lib/api-client';
import { useGoToMainApp } from '../../lib/main-app';
import { actingProfile, currentUser } from '../../lib/session';
import { userPath } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { TextField } from '../../components/text-field';
import { Button } from '../../components/button';
import { Alert } from '../../components/alert';
import { NoSession } from '../../components/no-session';
import { showToast } from '../../components/toast';
import { checkTeammates, teammateLocal, visibleFields, type TeammateProblem } from './teammate-rules';
import { inviteTeammates } from './api/teammates';
import { InvitationLink } from '../../components/invitation-link';
import { WithDomain } from '../../components/address';
import '../../components/auth-form.css';

const PROBLEM_KEYS: Record<TeammateProblem | 'at', string> = {
  at: 'atRefused',
  invalid: 'invalid',
  duplicate: 'duplicate',
  domain: 'otherDomain',
};

/**
 * `/user/add-teammates`: up to five same-domain addresses, Get started (the spec's label: it invites the
 * addresses typed, or only goes on when none is) or Skip, and the invitation link.
 */
export default function TeammatesForm() {
  const { t } = useTranslation('teammates');
  useDocumentTitle(t('title'));
  const { t: te } = useTranslation('errors');
  const goToMainApp = useGoToMainApp();
  const [locals, setLocals] = useState<string[]>(() => Array.from({ length: MAX_TEAMMATES }, () => ''));
  const [problems, setProblems] = useState<(TeammateProblem | 'at' | null)[]>([]);
  const user = currentUser();
  const domain = emailDomain(user?.email ?? '');
  const shown = visibleFields(locals);
  // With nothing typed, Get started only goes on (as Skip does): no error for an empty form.
  const typed = locals.some((local) => local.trim() !== '');
  const { busy, error, setError, onSubmit } = useFormSubmit({
    validate: () => {
      const checked = checkTeammates(locals.slice(0, shown), domain);
      setProblems(checked.problems);
      const firstBad = checked.problems.findIndex(Boolean);
      if (firstBad >= 0) return { form: t('MSG_ADD_TEAMMATES_INVALID_EMAIL_ERR'), focus: `teammate-${firstBad}` };
      if (checked.emails.length === 0 && typed) return { form: te('ERR_NO_EMAIL_PROVIDED'), focus: 'teammate-0' };
    },
    send: async () => {
      const { emails } = checkTeammates(locals.slice(0, shown), domain);
      if (emails.length === 0) {
        goToMainApp();
        return;
      }
      await inviteTeammates(emails);
      // Straight on to the app; how many invitations went out is said there, in a toast.
      showToast(t('sent', { count: emails.length }));
      goToMainApp();
    },
    failure: (caught) => {
      const code = caught instanceof ApiError ? caught.code : '';
      return { form: te(code || 'MSG_ADD_TEAMMATES_ERR', { defaultValue: t('MSG_ADD_TEAMMATES_ERR') }) };
    },
  });

  // Only professional (corporate) profiles invite teammates (spec §6); others go on to the main app.
  const personal = Boolean(user) && actingProfile()?.type === 'PERSONAL';
  useEffect(() => {
    if (personal) goToMainApp();
  }, [personal, goToMainApp]);
  if (personal) return null;
  if (!user || !domain) {
    return <NoSession title={t('title')} message={t('noSession')} linkTo={userPath('login')} linkText={t('toLogin')} />;
  }

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby="teammates-title">
      <h1 id="teammates-title">{t('title')}</h1>
      <p className="auth-form__lead">
        <WithDomain text={t('lead', { domain, max: MAX_TEAMMATES })} domain={domain} />
      </p>
      {locals.slice(0, shown).map((value, i) => {
        const problem = problems[i];
        return (
          <TextField
            key={i}
            name={`teammate-${i}`}
            label={t('field', { n: i + 1 })}
            placeholder={t('placeholder')}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            // A whole address being typed ("bob@gmail.com") shows without the fixed suffix glued after it.
            suffix={value.includes('@') ? undefined : `@${domain}`}
            value={value}
            error={
              problem ? (
                <WithDomain text={t(PROBLEM_KEYS[problem], { domain: `@${domain}` })} domain={`@${domain}`} />
              ) : null
            }
            onChange={(e) => {
              // The field takes a name only: "@…" is the fixed suffix (a pasted same-domain address is split).
              const { local, refused } = teammateLocal(e.target.value, domain);
              const next = [...locals];
              next[i] = local;
              setLocals(next);
              setError(null);
              setProblems((p) => {
                const copy = [...p];
                copy[i] = refused;
                return copy;
              });
            }}
          />
        );
      })}
      {error ? <Alert>{error}</Alert> : null}
      <div className="auth-form__actions">
        {/* One primary action (Invite); skipping is a quiet way on, not a second pill of the same weight. */}
        <Button variant="link" onClick={goToMainApp} disabled={busy}>
          {t('skip')}
        </Button>
        <Button type="submit" loading={busy}>
          {t('submit')}
        </Button>
      </div>
      <InvitationLink />
    </form>
  );
}
