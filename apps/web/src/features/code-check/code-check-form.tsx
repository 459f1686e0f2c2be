import { Placeholder } from '../../components/placeholder';

export default function CodeCheckForm() {
  return <Placeholder name="Code check" />;
}
