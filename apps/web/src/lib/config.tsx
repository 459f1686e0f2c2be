import { createContext, useContext, type ReactNode } from 'react';
import type { PublicConfig } from '@suite/contract/core';

/** Runtime settings come from the server, so one build serves any deployment. */
export async function loadConfig(): Promise<PublicConfig> {
  const response = await fetch('/api/config', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`config ${response.status}`);
  const data = (await response.json()) as Partial<PublicConfig> | null;
  // A light shape check: zod stays out of the start-up bundle.
  if (!data || typeof data.appTitle !== 'string' || typeof data.mainAppUrl !== 'string')
    throw new Error('config shape');
  return { ...FALLBACK_CONFIG, ...data };
}

const ConfigContext = createContext<PublicConfig | null>(null);

export function ConfigProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
}

export function useConfig(): PublicConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigProvider');
  return config;
}

/** Defaults for tests and for the fallback screen when /api/config cannot be reached. */
export const FALLBACK_CONFIG: PublicConfig = {
  appTitle: 'Suite',
  mainAppUrl: '/app',
  meetDomain: null,
  captchaSiteKey: '',
  hideHeader: false,
  hideFooter: false,
  environment: 'development',
  errorReportingDsn: null,
  publicSignup: true,
  maxUploadBytes: 100 * 1024 * 1024,
  termsUrls: {},
  privacyUrls: {},
};
