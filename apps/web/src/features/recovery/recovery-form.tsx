import { Placeholder } from '../../components/placeholder';

export default function RecoveryForm() {
  return <Placeholder name="Recovery" />;
}
