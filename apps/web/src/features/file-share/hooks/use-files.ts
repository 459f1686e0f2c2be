import { useCallback, useEffect, useState } from 'react';
import type { StoredFile } from '@suite/contract/core';
import { listFiles } from '../api/files';

export type FilesState =
  { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; files: StoredFile[] };

/** The owner's file list, kept in step with uploads and deletions made on this page. */
export function useFiles() {
  const [state, setState] = useState<FilesState>({ status: 'loading' });
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    listFiles().then(
      (files) => setState({ status: 'ready', files }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, []);
  useEffect(reload, [reload]);
  const added = useCallback(
    (file: StoredFile) => setState((s) => (s.status === 'ready' ? { ...s, files: [file, ...s.files] } : s)),
    [],
  );
  const removed = useCallback(
    (fileId: string) =>
      setState((s) => (s.status === 'ready' ? { ...s, files: s.files.filter((f) => f._id !== fileId) } : s)),
    [],
  );
  return { state, reload, added, removed };
}
