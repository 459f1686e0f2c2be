import { lazy, startTransition, useEffect, useState } from 'react';
import { Redirect, useSearchParams } from 'wouter';
import { useEntryState, useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { useConfig } from '../../lib/config';
import { displayNameProblem } from '../../lib/name-rules';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useFormSubmit } from '../../lib/use-form-submit';
import { FormSubmit } from '../../components/form-submit';
import { TextField } from '../../components/text-field';
import { guestTarget, meetingPathOf } from './guest-target';
import { GuestNoMeeting } from './guest-no-meeting';
import './guest.css';

// The prerendered /guest asks for a meeting: the name form's terms line and the registration load when
// the form is shown or sent, not with that page.
const TermsConsent = lazy(() => import('../../components/terms-consent').then((m) => ({ default: m.TermsConsent })));

/**
 * `/guest`: a link to one of our meetings (vc_link=/meet/<room>) goes to that meeting's pre-join, where the
 * guest gives the name and accepts the terms; any other target (the meeting domain, the previous
 * page) keeps this form: a name and the terms, then there. With none at all, the page says so at once
 * and asks for the meeting's code or link (the prerendered /guest is that page).
 */
export default function GuestPage() {
  const { t } = useTranslation('guest');
  useDocumentTitle(t('title'));
  const config = useConfig();
  const [params] = useSearchParams();
  const entry = useEntryState<{ from?: unknown }>();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [terms, setTerms] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  // A page of this app that sent the guest here (the spec's "previous page") is only known in the browser.
  const [previousPage, setPreviousPage] = useState(false);
  const named = Boolean(params.get('vc_link')) || typeof entry?.from === 'string';
  useEffect(() => {
    if (!named)
      // In a transition: the page asking for a meeting stays until the form's code is in.
      startTransition(() =>
        setPreviousPage(
          guestTarget({ vcLink: null, from: null, referrer: document.referrer, meetOrigin: null }) !== null,
        ),
      );
  }, [named]);

  // Only after a submit (useFormSubmit has them in by then): not holding the first paint.
  const { t: te } = useTranslation('errors', { useSuspense: false });
  const meetingPath = meetingPathOf(params.get('vc_link'));
  const nameProblem = displayNameProblem(name);
  // From the first submit on, the messages follow the input (a field fixed loses its message at once).
  const problems = {
    name: !nameProblem ? undefined : nameProblem === 'required' ? t('nameRequired') : te(nameProblem),
    terms: terms ? undefined : t('termsRequired'),
  };
  const { busy, error, onSubmit } = useFormSubmit<'name' | 'terms'>({
    validate: () => {
      setSubmitted(true);
      // Each field names what it misses; the spec's sentence stays the form's message.
      const missing = nameProblem === 'required' || !terms;
      return { fields: problems, ...(missing ? { form: t('REQUIRED_FIELD') } : {}) };
    },
    send: async () => {
      const { registerGuest } = await import('../../lib/guest');
      await registerGuest(name.trim());
      const target = guestTarget({
        vcLink: params.get('vc_link'),
        from: entry?.from,
        referrer: document.referrer,
        meetOrigin: config.meetDomain,
      });
      if (!target) throw new Error('no target');
      if (target.external) window.location.assign(target.to);
      else navigate(target.to, { replace: true });
    },
    failure: (caught) => {
      const reason = caught instanceof Error ? caught.message : '';
      if (reason === 'no target') return { form: t('MSG_GUEST_REDIRECT_ERR') };
      return { form: reason === 'no result' ? t('MSG_GUEST_ERR') : caught };
    },
  });

  if (meetingPath) return <Redirect to={meetingPath} replace />;
  if (!named && !previousPage) return <GuestNoMeeting />;

  return (
    <form className="card guest stack" method="post" onSubmit={onSubmit} noValidate aria-labelledby="guest-title">
      <h1 id="guest-title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <TextField
        label={t('name')}
        name="name"
        autoComplete="name"
        maxLength={100}
        required
        // The one thing to type here: the caret waits in it.
        autoFocus
        value={name}
        error={submitted ? problems.name : null}
        onChange={(e) => setName(e.target.value)}
      />
      <TermsConsent ns="guest" checked={terms} onChange={setTerms} error={submitted ? problems.terms : null} />
      <FormSubmit error={error} busy={busy} label={t('continue')} />
    </form>
  );
}
