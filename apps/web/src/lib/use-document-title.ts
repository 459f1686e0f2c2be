import { useEffect } from 'react';
import { useConfig } from './config';

/**
 * "Screen · App" in the tab and for screen readers (WCAG 2.4.2); the app title comes back on leaving.
 * `app` replaces the configured title where a page may be renamed (the meeting link's APP_NAME).
 */
export function useDocumentTitle(screen: string, app?: string): void {
  const { appTitle: configured } = useConfig();
  const appTitle = app || configured;
  useEffect(() => {
    const title = screen ? `${screen} · ${appTitle}` : appTitle;
    document.title = title;
    return () => {
      // A screen fading out after the next one set its title must not put the app title back over it.
      if (document.title === title) document.title = appTitle;
    };
  }, [screen, appTitle]);
}
