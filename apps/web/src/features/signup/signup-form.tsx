import { Placeholder } from '../../components/placeholder';

export default function SignupForm() {
  return <Placeholder name="Sign up" />;
}
