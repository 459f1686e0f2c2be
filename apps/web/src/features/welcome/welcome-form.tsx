import { Placeholder } from '../../components/placeholder';

export default function WelcomeForm() {
  return <Placeholder name="Welcome" />;
}
