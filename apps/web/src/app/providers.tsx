import { StrictMode, Suspense, type ReactNode } from 'react';
import type { PublicConfig } from '@suite/contract/core';
import { ConfigProvider } from '../lib/config';
import { DialogProvider } from '../components/confirm-dialog';
import { PageLoading } from '../components/page-loading';
import { Toaster } from '../components/toast';

export function Providers({ config, children }: { config: PublicConfig; children: ReactNode }) {
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
