import { StrictMode, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { PublicConfig } from '@suite/contract/core';
import { ConfigProvider } from '../lib/config';
import { DialogProvider } from '../components/confirm-dialog';
import { PageLoading } from '../components/page-loading';
import { Toaster } from '../components/toast';

/**
 * `later`: the settings that replace `config` once they are in (a prerendered page hydrates with the
 * settings it was rendered with, then takes the server's).
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
    void later?.then((next) => current && setConfig(next));
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
