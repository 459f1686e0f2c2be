import { createContext, useContext } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title';

/**
 * The names every meeting screen's document title ends with: the meeting's, then the app's (APP_NAME);
 * `attention`, when set, comes first (a guest let in while in another tab: "The host let you in · …").
 */
export const MeetingNames = createContext<{ app: string; meeting: string; attention?: string | null }>({
  app: '',
  meeting: '',
});

/** "Waiting for the host · Weekly sync · Suite"; `screen` null → "Weekly sync · Suite" (the room itself). */
export function useMeetingTitle(screen: string | null): void {
  const names = useContext(MeetingNames);
  useDocumentTitle([names.attention, screen, names.meeting].filter(Boolean).join(' · '), names.app);
}
