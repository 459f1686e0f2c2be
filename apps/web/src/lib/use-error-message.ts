import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';

/**
 * Turns any failure into a localized sentence: the catalogue text of its error_code, else the server's
 * message. The error texts load when the form shows, without holding its first paint (an answer
 * arriving before them shows the server's message).
 */
export function useErrorMessage(): (error: unknown) => string {
  const { t } = useTranslation('errors', { useSuspense: false });
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError) {
        return t(error.code, { defaultValue: error.message || t('MSG_REQUEST_ERROR') });
      }
      return t('MSG_REQUEST_ERROR');
    },
    [t],
  );
}
