import { useCallback, useEffect, useState } from 'react';
import type { StoredFile } from '@suite/contract/core';
import { listFiles } from '../api/files';

export type FilesState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; files: StoredFile[]; usedBytes: number; quotaBytes: number };

/** The owner's file list and storage use, kept in step with uploads and deletions made on this page. */
export function useFiles() {
  const [state, setState] = useState<FilesState>({ status: 'loading' });
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    listFiles().then(
      (r) => setState({ status: 'ready', files: r.data, usedBytes: r.used_bytes, quotaBytes: r.quota_bytes }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, []);
  useEffect(reload, [reload]);
  const added = useCallback(
    (file: StoredFile) =>
      setState((s) =>
        s.status === 'ready' ? { ...s, files: [file, ...s.files], usedBytes: s.usedBytes + file.size } : s,
      ),
    [],
  );
  const removed = useCallback(
    (fileId: string) =>
      setState((s) => {
        if (s.status !== 'ready') return s;
        const gone = s.files.find((f) => f._id === fileId);
        return {
          ...s,
          files: s.files.filter((f) => f._id !== fileId),
          usedBytes: Math.max(0, s.usedBytes - (gone?.size ?? 0)),
        };
      }),
    [],
  );
  return { state, reload, added, removed };
}
