import { useTranslation } from '../lib/i18n-react';
import type { Language } from '@suite/contract/core';
import { useConfig } from '../lib/config';
import { Checkbox } from './checkbox';

/** A space before the words after the link, none before punctuation ("terms of use." / "शर्तें पढ़ ली हैं"). */
const spaced = (text: string) => (/^[\p{L}\p{N}]/u.test(text) ? ` ${text}` : text);

/**
 * The terms checkbox (name `terms`) with the terms link in its label, and the privacy link, both in the
 * page's language. Texts: `termsBefore`, `termsLink`, `termsAfter` of the screen's namespace: the link
 * sits where each language puts it (Hindi: "मैंने [उपयोग की शर्तें] पढ़ ली हैं …"). The privacy link
 * is a sentence of the same label (`privacyBefore`, `privacyLink`, `privacyAfter`): a lone link under
 * the box reads as one more thing to do.
 */
export function TermsConsent(props: {
  ns: 'guest' | 'welcome';
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | null;
}) {
  const { t, i18n } = useTranslation(props.ns);
  const config = useConfig();
  const lang = (i18n.resolvedLanguage ?? 'en') as Language;
  const privacyUrl = config.privacyUrls[lang] ?? config.privacyUrls.en;
  return (
    <Checkbox name="terms" checked={props.checked} required error={props.error} onChange={props.onChange}>
      {t('termsBefore')}{' '}
      <a href={config.termsUrls[lang] ?? config.termsUrls.en} target="_blank" rel="noopener noreferrer">
        {t('termsLink')}
      </a>
      {spaced(t('termsAfter'))} {t('privacyBefore')}{' '}
      <a href={privacyUrl} target="_blank" rel="noopener noreferrer">
        {t('privacyLink')}
      </a>
      {spaced(t('privacyAfter'))}
    </Checkbox>
  );
}
