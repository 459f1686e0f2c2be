import { Placeholder } from '../../components/placeholder';

export default function MeetingPage() {
  return <Placeholder name="Meeting" />;
}
