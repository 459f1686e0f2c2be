import { FILE_API, API_PREFIX, type StoredFile } from '@suite/contract/core';
import { ApiError } from '../../../lib/api-client';
import { currentToken } from '../../../lib/session';

export interface UploadHandle {
  done: Promise<StoredFile>;
  abort(): void;
}

function failure(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as { error_code?: unknown; message?: unknown };
    if (typeof body.error_code === 'string' && typeof body.message === 'string') {
      return new ApiError(xhr.status, body.error_code, body.message);
    }
  } catch {
    // not JSON: fall through
  }
  return new ApiError(xhr.status, xhr.status === 413 ? 'ERR_FILE_TOO_LARGE' : 'ERR_REQUEST', 'Request Error');
}

/**
 * `POST /files` as multipart. XMLHttpRequest rather than fetch: only it reports upload progress.
 * No timeout: a large file may take longer than the 6 s of ordinary authenticated calls.
 */
export function uploadFile(file: File, onProgress: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<StoredFile>((resolve, reject) => {
    xhr.open('POST', `${API_PREFIX}${FILE_API.files}`);
    xhr.setRequestHeader('accept', 'application/json');
    const token = currentToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 201) {
        onProgress(1);
        resolve(JSON.parse(xhr.responseText) as StoredFile);
      } else reject(failure(xhr));
    };
    xhr.onerror = () => reject(new ApiError(0, 'ERR_NETWORK', 'Could not connect to the server.'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}
