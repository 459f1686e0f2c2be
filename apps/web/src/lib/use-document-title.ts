import { useEffect } from 'react';
import { useConfig } from './config';

/** "Screen · App" in the tab and for screen readers (WCAG 2.4.2); the app title comes back on leaving. */
export function useDocumentTitle(screen: string): void {
  const { appTitle } = useConfig();
  useEffect(() => {
    document.title = screen ? `${screen} · ${appTitle}` : appTitle;
    return () => {
      document.title = appTitle;
    };
  }, [screen, appTitle]);
}
