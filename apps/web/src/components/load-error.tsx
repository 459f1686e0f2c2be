import { useErrorMessage } from '../lib/use-error-message';
import { Alert } from './alert';
import { Button } from './button';

/** A panel whose data could not be loaded: why (the failure in words, at render) and a way to ask again. */
export function LoadError({ error, retryLabel, onRetry }: { error: unknown; retryLabel: string; onRetry: () => void }) {
  const message = useErrorMessage();
  return (
    <div className="stack">
      <Alert>{message(error)}</Alert>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
