import { Placeholder } from '../../../components/placeholder';

/** Signed-in home slot: start a meeting (issue 5). */
export function MeetingsPanel() {
  return <Placeholder name="Meetings" />;
}
