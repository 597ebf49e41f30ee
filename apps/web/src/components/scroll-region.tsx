import type { ReactNode } from "react";

/**
 * A region that scrolls a table wider (or longer) than the screen. It takes focus so that the
 * keyboard can scroll it too (axe: scrollable-region-focusable), and is named for the table.
 */
export function ScrollRegion({
  className,
  label,
  children,
}: {
  className: string;
  label: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
    <section className={className} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
