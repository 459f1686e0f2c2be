import { StrictMode, Suspense, startTransition, useEffect, useState, type ReactNode } from 'react';
import type { PublicConfig } from '@suite/contract/core';
import { ConfigProvider } from '../lib/config';
import { DialogProvider } from '../components/confirm-dialog';
import { PageLoading } from '../components/page-loading';
import { Toaster } from '../components/toast';

/**
 * `later`: the settings that replace `config` once they are in (a prerendered page hydrates with the
 * settings it was rendered with, then takes the server's). They apply as a transition: an urgent update
 * reaching a part of the page still being hydrated makes React throw its prerendered markup away and
 * render it anew (the card of /clear and /supported-browser was replaced under a reader, and a test).
 */
export function Providers({
  config: initial,
  later,
  children,
}: {
  config: PublicConfig;
  later?: Promise<PublicConfig>;
  children: ReactNode;
}) {
  const [config, setConfig] = useState(initial);
  useEffect(() => {
    let current = true;
    void later?.then((next) => current && startTransition(() => setConfig(next)));
    return () => {
      current = false;
    };
  }, [later]);
  return (
    <StrictMode>
      <ConfigProvider config={config}>
        <Suspense fallback={<PageLoading />}>
          <DialogProvider>
            {children}
            <Toaster />
          </DialogProvider>
        </Suspense>
      </ConfigProvider>
    </StrictMode>
  );
}
