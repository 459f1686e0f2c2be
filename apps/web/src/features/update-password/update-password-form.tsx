import { Placeholder } from '../../components/placeholder';

export default function UpdatePasswordForm() {
  return <Placeholder name="Update password" />;
}
