import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useErrorMessage } from '../../../lib/use-error-message';
import type { PagedState } from '../hooks/use-paged';

/** "Show more" under a paged list while there is a next page; a failed page says why and is asked again by the same button. */
export function MoreButton<T>({
  state,
  onMore,
  label,
}: {
  state: Extract<PagedState<T>, { status: 'ready' }>;
  onMore: () => void;
  label: string;
}) {
  const message = useErrorMessage();
  if (!state.next) return null;
  return (
    <div className="stack admin__more">
      {state.moreError ? <Alert>{message(state.moreError)}</Alert> : null}
      <Button variant="secondary" onClick={onMore} loading={state.loadingMore}>
        {label}
      </Button>
    </div>
  );
}
