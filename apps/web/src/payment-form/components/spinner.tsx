export function Spinner({ label }: { label: string }) {
  return (
    <div className="pf-spinner-wrap" role="status">
      <span className="pf-spinner" aria-hidden="true" />
      <span className="pf-spinner-label">{label}</span>
    </div>
  );
}
