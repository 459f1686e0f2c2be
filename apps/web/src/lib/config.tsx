import { createContext, useContext, type ReactNode } from 'react';
import { LANGUAGES, type PublicConfig } from '@suite/contract/core';

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

/** The legal pages' names per language (public/legal): the same the server's /api/config gives. */
const LEGAL_BASE: Record<string, string> = { en: 'en', pt: 'pt-br', es: 'es', hi: 'hi', it: 'it' };
const legal = (kind: 'terms' | 'privacy') =>
  Object.fromEntries(LANGUAGES.map((l) => [l, `/legal/${kind}-${LEGAL_BASE[l]}.html`]));

/**
 * The settings the entry screens are prerendered with at build, and hydrated with (the settings the
 * server sends replace them right after): the defaults, the legal pages on this origin. The server sends
 * a prerendered page only when the deployment's settings that change the markup (PRERENDER_KEYS) are
 * these; the links (main app, legal pages) only change their address.
 */
export const PRERENDER_CONFIG: PublicConfig = {
  ...FALLBACK_CONFIG,
  termsUrls: legal('terms'),
  privacyUrls: legal('privacy'),
};
export const PRERENDER_KEYS = ['appTitle', 'hideHeader', 'hideFooter', 'publicSignup'] as const;
