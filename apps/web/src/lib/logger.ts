import type { PublicConfig } from '@suite/contract/core';
import { STORAGE_KEYS, readJson, readString } from './storage';

type Level = 'debug' | 'info' | 'warn' | 'error';
let settings: { active: boolean; dsn: string | null } = { active: false, dsn: null };

/** The logger is active only in alpha and production; error reports go out only when a DSN is configured. */
export function configureLogger(config: Pick<PublicConfig, 'environment' | 'errorReportingDsn'>): void {
  const active = config.environment === 'alpha' || config.environment === 'production';
  settings = { active, dsn: active ? config.errorReportingDsn : null };
}

export function isLoggerActive(): boolean {
  return settings.active;
}

/** Tags every line with the acting profile and the guest id (spec §3). */
export function logTags(): { acting_profile: string | null; guestId: string | null } {
  return {
    acting_profile: readJson<{ _id?: string }>(STORAGE_KEYS.actingProfile)?._id ?? null,
    guestId: readString(STORAGE_KEYS.guestId),
  };
}

function emit(level: Level, message: string, data?: Record<string, unknown>): void {
  if (!settings.active) return;
  const entry = { level, message, ...logTags(), ...data, at: new Date().toISOString() };
  const out = level === 'error' ? console.error : level === 'warn' ? console.warn : console.info;
  out('[suite]', entry);
  if (level === 'error' && settings.dsn) {
    try {
      navigator.sendBeacon(settings.dsn, JSON.stringify(entry));
    } catch {
      // reporting must never break the page
    }
  }
}

export const logger = {
  debug: (m: string, d?: Record<string, unknown>) => emit('debug', m, d),
  info: (m: string, d?: Record<string, unknown>) => emit('info', m, d),
  warn: (m: string, d?: Record<string, unknown>) => emit('warn', m, d),
  error: (m: string, d?: Record<string, unknown>) => emit('error', m, d),
};
