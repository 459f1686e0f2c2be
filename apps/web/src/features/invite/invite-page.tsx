import { Placeholder } from '../../components/placeholder';

export default function InvitePage() {
  return <Placeholder name="Invite acceptance" />;
}
