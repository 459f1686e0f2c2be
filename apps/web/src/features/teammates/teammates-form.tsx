import { Placeholder } from '../../components/placeholder';

export default function TeammatesForm() {
  return <Placeholder name="Add teammates" />;
}
