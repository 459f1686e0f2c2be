import { Placeholder } from '../../components/placeholder';

export default function ThirdPartyCookiesPage() {
  return <Placeholder name="Third-party cookies" />;
}
