import type { ReactNode } from "react";
import { ScrollRegion } from "./scroll-region.tsx";
import { TableHead } from "./table-head.tsx";

export interface ScrollTableProps {
  className: string;
  label: string;
  tableClassName?: string;
  caption?: ReactNode;
  columns: readonly string[];
  /** Marks the table aria-busy while its rows are being fetched again. */
  busy?: boolean;
  children: ReactNode;
}

/**
 * A table in its scrolling region: the region named `label`, the table's caption (the label
 * unless told) and column headings, then `children`, its body's rows.
 */
export function ScrollTable({
  className,
  label,
  tableClassName,
  caption = label,
  columns,
  busy,
  children,
}: ScrollTableProps) {
  return (
    <ScrollRegion className={className} label={label}>
      <table className={tableClassName} aria-busy={busy || undefined}>
        <TableHead caption={caption} columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
}
