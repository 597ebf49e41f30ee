import { formatDayTime } from "@gradecast/contract/dates";
import {
  type RecordHistory as History,
  type RecordRow,
  recordFieldLabels,
} from "@gradecast/contract/school-record";
import { useEffect, useId, useRef } from "react";
import { Button } from "../../components/button.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { TableHead } from "../../components/table-head.tsx";
import { useRecordHistory } from "./api.ts";
import { valueText } from "./cells.ts";

// A student's record over time, newest first: every value it held, who set it, when and how.
// A value entered over an earlier one is a correction and says what it replaced.

const viaLabels = { grid: "Gradebook", import: "CSV import", seed: "Demo data" } as const;

type Entry = History["items"][number];

/** The value an entry replaced: the next older entry of the same field (items are newest first). */
function replaced(items: Entry[], i: number): Entry | undefined {
  const field = items[i]!.field;
  return items.slice(i + 1).find((e) => e.field === field);
}

const shown = (value: Entry["value"]) => valueText(value) || "blank";

export function RecordHistory({
  classId,
  row,
  onClose,
}: {
  classId: string;
  row: RecordRow;
  onClose: () => void;
}) {
  const history = useRecordHistory(classId, row.studentId);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new student's history takes focus
  useEffect(() => {
    headingRef.current?.focus();
  }, [row.studentId]);

  return (
    <section className="gradebook-history" aria-labelledby={titleId}>
      <h3 id={titleId} ref={headingRef} tabIndex={-1}>
        History of {row.name}'s record
      </h3>
      {history.isPending ? (
        <Spinner label="Loading the history..." />
      ) : history.isError ? (
        <ErrorState query={history} />
      ) : history.data.items.length === 0 ? (
        <p className="muted">Nothing has been entered for {row.name} yet.</p>
      ) : (
        <table className="gradebook-history-table">
          <TableHead
            caption={`Every value of ${row.name}'s record, newest first`}
            columns={["When", "Field", "Value", "By", "How"]}
          />
          <tbody>
            {history.data.items.map((entry, i) => {
              const before = replaced(history.data.items, i);
              return (
                <tr
                  key={`${entry.field}-${entry.setAt}-${String(entry.value)}`}
                  data-testid="history-entry"
                >
                  <td>
                    <time dateTime={entry.setAt}>{formatDayTime(entry.setAt)}</time>
                  </td>
                  <td>{recordFieldLabels[entry.field]}</td>
                  <td>
                    {shown(entry.value)}
                    {before ? (
                      <span className="muted"> (correction: was {shown(before.value)})</span>
                    ) : null}
                  </td>
                  <td>{entry.setBy.name}</td>
                  <td>{viaLabels[entry.via]}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="actions">
        <Button variant="ghost" onClick={onClose}>
          Close the history
        </Button>
      </div>
    </section>
  );
}
