export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="btn__spinner" aria-hidden="true" style={{ width: 28, height: 28, color: 'var(--blue)' }} />
    </div>
  );
}
