import { Placeholder } from '../../components/placeholder';

export default function FileDownloadPage() {
  return <Placeholder name="File download" />;
}
