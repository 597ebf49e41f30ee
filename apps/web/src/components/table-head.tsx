import type { ReactNode } from "react";

/**
 * A table's opening: its caption, read by screen readers only (the heading or summary above
 * says it on screen), and one row of column headings.
 */
export function TableHead({
  caption,
  columns,
}: {
  caption: ReactNode;
  columns: readonly string[];
}) {
  return (
    <>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((name) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        </tr>
      </thead>
    </>
  );
}
