export interface SpinnerProps {
  /** What is loading, read by screen readers and shown beside the wheel. */
  label?: string;
  className?: string;
}

export function Spinner({ label = "Loading...", className }: SpinnerProps) {
  return (
    <div className={["spinner-block", className].filter(Boolean).join(" ")} role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="spinner-label">{label}</span>
    </div>
  );
}
