import { Placeholder } from '../../../components/placeholder';

/** Signed-in home slot: upload and share files (issue 6). */
export function FilesPanel() {
  return <Placeholder name="Files" />;
}
