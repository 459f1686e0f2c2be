/** A clearly labelled stand-in for a screen another issue delivers. */
export function Placeholder({ name }: { name: string }) {
  return (
    <div className="card simple-page" data-placeholder={name}>
      <h1>{name}</h1>
      <p className="muted">Placeholder: this screen is not built yet.</p>
    </div>
  );
}
