import { Placeholder } from '../../components/placeholder';

export default function GuestPage() {
  return <Placeholder name="Guest" />;
}
