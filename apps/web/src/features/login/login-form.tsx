import { Placeholder } from '../../components/placeholder';

export default function LoginForm() {
  return <Placeholder name="Login" />;
}
