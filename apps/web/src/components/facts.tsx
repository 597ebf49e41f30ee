import type { ReactNode } from "react";

/** Named facts as a description list: each name (dt) with its value (dd), a pair a row. */
export function Facts({
  facts,
  className,
  label,
}: {
  facts: readonly (readonly [string, ReactNode])[];
  className: string;
  /** The list's accessible name, where no heading says what it holds. */
  label?: string;
}) {
  return (
    <dl className={className} aria-label={label}>
      {facts.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
