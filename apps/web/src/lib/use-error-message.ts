import { useCallback } from 'react';
import { useTranslation } from './i18n-react';
import { ApiError } from './api-client';

/**
 * What a screen shows as a message, in words: a string as it is; any failure as the localized catalogue
 * text of its error_code, else the server's message. The error texts load just after the form's first
 * paint (not holding it): keep the failure itself in state and call this at render, so that an answer
 * that came before the texts is shown again in the user's language once they are in.
 */
export function useErrorMessage(): (error: unknown) => string {
  const { t } = useTranslation('errors', { useSuspense: false });
  return useCallback(
    (error: unknown) => {
      if (typeof error === 'string') return error;
      if (error instanceof ApiError) {
        return t(error.code, { defaultValue: error.message || t('MSG_REQUEST_ERROR') });
      }
      return t('MSG_REQUEST_ERROR');
    },
    [t],
  );
}
