import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ACCEPTED_TERMS_VERSION, type Language } from '@suite/contract/core';
import { useConfig } from '../../lib/config';
import { STORAGE_KEYS, write } from '../../lib/storage';
import { displayNameProblem } from '../../lib/name-rules';
import { useErrorMessage } from '../../lib/use-error-message';
import { useDocumentTitle } from '../../lib/use-document-title';
import { TextField } from '../../components/text-field';
import { Checkbox } from '../../components/checkbox';
import { Button } from '../../components/button';
import { Alert } from '../../components/alert';
import { createGuest } from './api/create-guest';
import { guestTarget } from './guest-target';
import './guest.css';

/** `/guest`: a guest gives a name and accepts the terms, then returns to the meeting (vc_link) or the previous page. */
export default function GuestPage() {
  const { t, i18n } = useTranslation('guest');
  useDocumentTitle(t('title'));
  const errorMessage = useErrorMessage();
  const config = useConfig();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [terms, setTerms] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const lang = (i18n.resolvedLanguage ?? 'en') as Language;

  const { t: te } = useTranslation('errors');
  const nameProblem = displayNameProblem(name);
  const nameError =
    !submitted || !nameProblem ? null : nameProblem === 'required' ? t('REQUIRED_FIELD') : te(nameProblem);
  const termsError = submitted && !terms ? t('REQUIRED_FIELD') : null;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setError(null);
    if (nameProblem || !terms) return;
    setBusy(true);
    try {
      const guest = await createGuest({ name: name.trim(), accepted_terms: { version: ACCEPTED_TERMS_VERSION } });
      if (!guest?._id) throw new Error('no result');
      write(STORAGE_KEYS.guestId, guest._id);
      write(STORAGE_KEYS.guestName, guest.name);
      const target = guestTarget({
        vcLink: params.get('vc_link'),
        from: (location.state as { from?: unknown } | null)?.from,
        referrer: document.referrer,
        meetOrigin: config.meetDomain,
      });
      if (!target) {
        setError(t('MSG_GUEST_REDIRECT_ERR'));
        setBusy(false);
        return;
      }
      if (target.external) window.location.assign(target.to);
      else navigate(target.to, { replace: true });
    } catch (caught) {
      setError(caught instanceof Error && caught.message === 'no result' ? t('MSG_GUEST_ERR') : errorMessage(caught));
      setBusy(false);
    }
  }

  return (
    <form className="card guest stack" onSubmit={onSubmit} noValidate aria-labelledby="guest-title">
      <h1 id="guest-title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <TextField
        label={t('name')}
        name="name"
        autoComplete="name"
        maxLength={100}
        required
        value={name}
        error={nameError}
        onChange={(e) => setName(e.target.value)}
      />
      <Checkbox checked={terms} onChange={setTerms} error={termsError} required name="terms">
        {t('termsBefore')}{' '}
        <a href={config.termsUrls[lang] ?? config.termsUrls.en} target="_blank" rel="noopener noreferrer">
          {t('termsLink')}
        </a>
      </Checkbox>
      <p className="guest__privacy">
        <a href={config.privacyUrls[lang] ?? config.privacyUrls.en} target="_blank" rel="noopener noreferrer">
          {t('privacy')}
        </a>
      </p>
      {error ? <Alert>{error}</Alert> : null}
      <Button type="submit" block loading={busy}>
        {t('continue')}
      </Button>
    </form>
  );
}
