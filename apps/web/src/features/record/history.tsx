import type { RecordHistory as History, RecordRow } from "@gradecast/contract/school-record";
import { useEffect, useId, useRef } from "react";
import { Button } from "../../components/button.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { TableHead } from "../../components/table-head.tsx";
import { useT } from "../../i18n/intl.tsx";
import { formatDateTime } from "../analytics/format.ts";
import { useRecordHistory } from "./api.ts";
import { fieldLabel, type Translate, valueText } from "./cells.ts";

// A student's record over time, newest first: every value it held, who set it, when and how.
// A value entered over an earlier one is a correction and says what it replaced.

const viaKeys = {
  grid: "gradebook.history.via.grid",
  import: "gradebook.history.via.import",
  seed: "gradebook.history.via.seed",
} as const;

type Entry = History["items"][number];

/** The value an entry replaced: the next older entry of the same field (items are newest first). */
function replaced(items: Entry[], i: number): Entry | undefined {
  const field = items[i]!.field;
  return items.slice(i + 1).find((e) => e.field === field);
}

const shown = (t: Translate, value: Entry["value"]) =>
  valueText(value, t) || t("gradebook.history.blank");

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
  const { intl, t } = useT();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new student's history takes focus
  useEffect(() => {
    headingRef.current?.focus();
  }, [row.studentId]);

  return (
    <section className="gradebook-history" aria-labelledby={titleId}>
      <h3 id={titleId} ref={headingRef} tabIndex={-1}>
        {t("gradebook.history.title", { name: row.name })}
      </h3>
      <QueryView query={history} loading={t("gradebook.history.loading")}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="muted">{t("gradebook.history.empty", { name: row.name })}</p>
          ) : (
            <table className="gradebook-history-table">
              <TableHead
                caption={t("gradebook.history.caption", { name: row.name })}
                columns={[
                  t("gradebook.history.when"),
                  t("gradebook.history.field"),
                  t("gradebook.history.value"),
                  t("gradebook.history.by"),
                  t("gradebook.history.how"),
                ]}
              />
              <tbody>
                {data.items.map((entry, i) => {
                  const before = replaced(data.items, i);
                  return (
                    <tr
                      key={`${entry.field}-${entry.setAt}-${String(entry.value)}`}
                      data-testid="history-entry"
                    >
                      <td>
                        <time dateTime={entry.setAt}>
                          {formatDateTime(entry.setAt, intl.locale)}
                        </time>
                      </td>
                      <td>{fieldLabel(t, entry.field)}</td>
                      <td>
                        {shown(t, entry.value)}
                        {before ? (
                          <span className="muted">
                            {t("gradebook.history.correction", { value: shown(t, before.value) })}
                          </span>
                        ) : null}
                      </td>
                      <td>{entry.setBy.name}</td>
                      <td>{t(viaKeys[entry.via])}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )
        }
      </QueryView>
      <div className="actions">
        <Button variant="ghost" onClick={onClose}>
          {t("gradebook.history.close")}
        </Button>
      </div>
    </section>
  );
}
