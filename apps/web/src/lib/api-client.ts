/** Any schema with zod's safeParse. */
interface Schema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

type Contract = typeof import('@suite/contract/schemas');
type SchemaName = { [K in keyof Contract]: Contract[K] extends Schema<unknown> ? K : never }[keyof Contract];

/**
 * A response schema of the contract, loaded (with zod) when the request starts and in parallel with
 * it: entry screens validate answers without zod in their first load.
 */
export function lazySchema<K extends SchemaName>(name: K): () => Promise<Contract[K]> {
  return () => import('@suite/contract/schemas').then((contract) => contract[name]);
}
import { API_PREFIX, AUTH_HTTP_TIMEOUT_MS, apiPath } from '@suite/contract/core';
import { currentToken } from './session';
import { userPath } from './paths';

/** Failure of an API call: `code` is the server's error_code, or ERR_NETWORK / ERR_TIMEOUT from here. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

/** A 429: the answer said when to ask again (Retry-After), so that a waiting screen can wait as asked. */
export class RetryLaterError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    /** From Retry-After (seconds or an HTTP date); null when the answer gave none. */
    readonly retryAfterMs: number | null,
  ) {
    super(status, code, message);
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Send the stored bearer token; authenticated calls time out after 6000 ms (spec §7). */
  auth?: boolean;
  /** An explicit bearer token (e.g. the one just returned by confirm). */
  token?: string;
  /** Validates the answer: a schema, or a loader of one (lazySchema). */
  schema?: Schema<T> | (() => Promise<Schema<T>>);
  timeoutMs?: number;
  signal?: AbortSignal;
}

let languageTag = 'en-US';
export function setApiLanguage(tag: string): void {
  languageTag = tag;
}
/** The Accept-Language every call sends (the UI language). */
export const apiLanguage = (): string => languageTag;

export async function apiRequest<T = unknown>(options: RequestOptions<T>): Promise<T> {
  const { method = 'GET', auth = false } = options;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) search.set(key, value);
  const url = `${API_PREFIX}${apiPath(options.path, options.params)}${search.size ? `?${search}` : ''}`;
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': languageTag };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const bearer = options.token ?? (auth ? currentToken() : null);
  if (bearer) headers.authorization = `Bearer ${bearer}`;

  const timeoutMs = options.timeoutMs ?? (auth || options.token ? AUTH_HTTP_TIMEOUT_MS : 15_000);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  const schema = typeof options.schema === 'function' ? options.schema() : options.schema;
  // A schema that fails to load must not surface as an unhandled rejection while the request runs.
  if (schema instanceof Promise) schema.catch(() => undefined);
  // The request failed: the timeout (which keeps running while the body arrives), the caller's abort, or
  // no connection.
  const failed = (error: unknown): never => {
    if (timeout.aborted) throw new ApiError(0, 'ERR_TIMEOUT', 'The server took too long to answer.');
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'ERR_NETWORK', 'Could not connect to the server.');
  };
  const response = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal,
    credentials: 'same-origin',
  }).catch(failed);
  const text = await response.text().catch(failed);
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = json as { error_code?: unknown; message?: unknown; details?: { path: string; message: string }[] };
    const known = error && typeof error.error_code === 'string' && typeof error.message === 'string';
    const code = known ? (error.error_code as string) : 'ERR_REQUEST';
    const message = known ? (error.message as string) : 'Request Error';
    // The session is the welcome step's (name, password and terms still to give): its place is there.
    if (code === 'ERR_REGISTRATION_INCOMPLETE') window.location.replace(userPath('welcome'));
    if (response.status === 429) {
      throw new RetryLaterError(429, code, message, parseRetryAfter(response.headers.get('retry-after')));
    }
    throw new ApiError(response.status, code, message, known ? error.details : undefined);
  }
  if (!schema) return json as T;
  let validator: Schema<T>;
  try {
    validator = await schema;
  } catch {
    throw new ApiError(0, 'ERR_NETWORK', 'Could not connect to the server.');
  }
  const parsed = validator.safeParse(json);
  if (!parsed.success) throw new ApiError(response.status, 'ERR_REQUEST', 'Request Error');
  return parsed.data;
}
