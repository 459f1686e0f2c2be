import { API_PREFIX, apiPath } from '@suite/contract/core';
import { ApiError, RetryLaterError, apiLanguage, parseRetryAfter } from './api-client';
import { currentToken } from './session';

/**
 * A file the API streams (e.g. a CSV export), fetched with the session's bearer token (never in the
 * address: it would outlive the download in history and logs) and handed back as a Blob with the name
 * the answer's Content-Disposition gives. No timeout on the body: a large export takes as long as it takes.
 */
export async function apiDownload(options: {
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  signal?: AbortSignal;
}): Promise<{ blob: Blob; filename: string | null }> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) search.set(key, value);
  const url = `${API_PREFIX}${apiPath(options.path, options.params)}${search.size ? `?${search}` : ''}`;
  const headers: Record<string, string> = { 'accept-language': apiLanguage() };
  const bearer = currentToken();
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'ERR_NETWORK', 'Could not connect to the server.');
  }
  if (!response.ok) {
    const error = (await response.json().catch(() => undefined)) as
      { error_code?: unknown; message?: unknown } | undefined;
    const known = error && typeof error.error_code === 'string' && typeof error.message === 'string';
    const code = known ? (error.error_code as string) : 'ERR_REQUEST';
    const message = known ? (error.message as string) : 'Request Error';
    if (response.status === 429) {
      throw new RetryLaterError(429, code, message, parseRetryAfter(response.headers.get('retry-after')));
    }
    throw new ApiError(response.status, code, message);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'ERR_NETWORK', 'Could not connect to the server.');
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob, filename };
}
