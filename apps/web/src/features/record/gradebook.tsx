import {
  type ClassRecord,
  type RecordField,
  type RecordRow,
  recordFields,
} from "@gradecast/contract/school-record";
import {
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { ApiError } from "../../api/client.ts";
import { useSession } from "../../auth/session.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { ScrollTable } from "../../components/scroll-table.tsx";
import { useT } from "../../i18n/intl.tsx";
import { saveCell, useClassRecord, useRowSaved } from "./api.ts";
import {
  cellLabel,
  columnHeading,
  fieldLabel,
  loadUnsaved,
  parseCell,
  pastedBlock,
  saveUnsaved,
  setByText,
  type Translate,
  valueText,
} from "./cells.ts";
import { RecordHistory } from "./history.tsx";
import { RecordImport } from "./record-import.tsx";
import "./record.css";

// The gradebook on /classes/:id (issue 29): the class's school record as a spreadsheet, one
// row per enrolled student. Arrow keys and Enter move between cells (Tab as anywhere), a block
// pasted from a spreadsheet fills the cells from the one pasted into, and each cell is saved on
// its own as the teacher leaves it, with its state beside it: saving, saved, or refused with
// the server's reason (the text stays to be fixed). A value the network lost stays on screen,
// marked not saved, with a retry, and is kept on this device until it is saved. An admin reads
// the record and changes nothing. On a phone one student's values are shown at a time, as a form.

type Status = "editing" | "saving" | "saved" | "refused" | "unsaved";
interface CellState {
  text: string;
  status: Status;
  reason?: string;
}
type Cells = Record<string, CellState>;

const keyOf = (studentId: string, field: RecordField) => `${studentId}:${field}`;

const narrowQuery = "(max-width: 48rem)";

/** True on a screen as narrow as a phone's (the layout's breakpoint). */
function useNarrow(): boolean {
  const media = typeof window !== "undefined" && window.matchMedia ? window.matchMedia : null;
  const [narrow, setNarrow] = useState(() => (media ? media(narrowQuery).matches : false));
  useEffect(() => {
    if (!media) return;
    const list = media(narrowQuery);
    const change = () => setNarrow(list.matches);
    list.addEventListener?.("change", change);
    return () => list.removeEventListener?.("change", change);
  }, [media]);
  return narrow;
}

/** A failure worth retrying as is: the network, or the server's own trouble. */
const lost = (err: unknown) => !(err instanceof ApiError) || err.status === 0 || err.status >= 500;

function reasonOf(t: Translate, err: unknown): string {
  if (err instanceof ApiError) {
    return err.fields.value ?? Object.values(err.fields)[0] ?? err.message;
  }
  return t("gradebook.notSavedReason");
}

/** A text with a part only screen readers hear: "History<hidden> of Amy</hidden>". */
const hidden = (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>;

export function Gradebook({ classId }: { classId: string }) {
  const record = useClassRecord(classId);
  const { t } = useT();
  return (
    <Card title={t("gradebook.title")} className="gradebook-card">
      <p className="muted">{t("gradebook.intro")}</p>
      <QueryView query={record} loading={t("gradebook.loading")}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState title={t("gradebook.empty.title")}>{t("gradebook.empty.text")}</EmptyState>
          ) : (
            <GradebookBody classId={classId} record={data} />
          )
        }
      </QueryView>
    </Card>
  );
}

function GradebookBody({ classId, record }: { classId: string; record: ClassRecord }) {
  const { user } = useSession();
  const userId = user?.uid ?? "";
  const rowSaved = useRowSaved(classId);
  const narrow = useNarrow();
  const gridId = useId();
  const { intl, t } = useT();
  const [cells, setCells] = useState<Cells>(() =>
    Object.fromEntries(
      Object.entries(record.canEdit ? loadUnsaved(userId, classId) : {}).map(([k, text]) => [
        k,
        { text, status: "unsaved" as const },
      ]),
    ),
  );
  const cellsRef = useRef(cells);
  cellsRef.current = cells;
  const [announce, setAnnounce] = useState("");
  const [historyOf, setHistoryOf] = useState<RecordRow | null>(null);
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const rows = record.items;

  // Every value typed and not saved yet is kept on this device until the server takes it.
  useEffect(() => {
    if (!record.canEdit || !userId) return;
    const keep = Object.fromEntries(
      Object.entries(cells)
        .filter(([, c]) => c.status !== "saved")
        .map(([k, c]) => [k, c.text]),
    );
    saveUnsaved(userId, classId, keep);
  }, [cells, record.canEdit, userId, classId]);

  const update = useCallback((key: string, next: CellState | null) => {
    setCells((prev) => {
      const copy = { ...prev };
      if (next) copy[key] = next;
      else delete copy[key];
      cellsRef.current = copy;
      return copy;
    });
  }, []);

  const save = useCallback(
    (row: RecordRow, field: RecordField, text: string) => {
      const key = keyOf(row.studentId, field);
      const label = cellLabel(t, field, row.name);
      const parsed = parseCell(t, field, text);
      if ("error" in parsed) {
        update(key, { text, status: "refused", reason: parsed.error });
        setAnnounce(t("gradebook.announce.refused", { label, reason: parsed.error }));
        return;
      }
      update(key, { text, status: "saving" });
      saveCell(classId, row.studentId, field, parsed.value).then(
        (answer) => {
          rowSaved(answer.row);
          const now = cellsRef.current[key];
          if (now && now.text !== text) return; // typed again meanwhile: that text saves next
          update(key, { text: valueText(answer.row.values[field]?.value, t), status: "saved" });
          setAnnounce(t("gradebook.announce.saved", { label }));
        },
        (err: unknown) => {
          const now = cellsRef.current[key];
          if (now && now.text !== text) return;
          if (lost(err)) {
            update(key, { text, status: "unsaved" });
            setAnnounce(t("gradebook.announce.lost", { label }));
          } else {
            const reason = reasonOf(t, err);
            update(key, { text, status: "refused", reason });
            setAnnounce(t("gradebook.announce.refused", { label, reason }));
          }
        },
      );
    },
    [classId, rowSaved, update, t],
  );

  /** Saves a cell left after typing; a text equal to the record's value needs no call. */
  const commit = useCallback(
    (row: RecordRow, field: RecordField) => {
      const key = keyOf(row.studentId, field);
      const state = cellsRef.current[key];
      if (state?.status !== "editing") return;
      if (state.text.trim() === valueText(row.values[field]?.value, t)) {
        update(key, null);
        return;
      }
      save(row, field, state.text);
    },
    [save, update, t],
  );

  function focusCell(r: number, c: number) {
    const row = rows[Math.max(0, Math.min(rows.length - 1, r))];
    const field = recordFields[Math.max(0, Math.min(recordFields.length - 1, c))];
    if (!row || !field) return;
    const input = inputs.current.get(keyOf(row.studentId, field));
    input?.focus();
    input?.select();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>, r: number, c: number) {
    const input = event.currentTarget;
    const row = rows[r]!;
    const field = recordFields[c]!;
    const start = input.selectionStart ?? 0;
    const end = input.selectionEnd ?? 0;
    const all = start === 0 && end === input.value.length;
    let to: [number, number] | null = null;
    if (event.key === "ArrowUp") to = [r - 1, c];
    else if (event.key === "ArrowDown") to = [r + 1, c];
    else if (event.key === "Enter") to = [event.shiftKey ? r - 1 : r + 1, c];
    else if (event.key === "ArrowLeft" && (all || (start === 0 && end === 0))) to = [r, c - 1];
    else if (event.key === "ArrowRight" && (all || start === input.value.length)) to = [r, c + 1];
    else if (event.key === "Escape") {
      const state = cellsRef.current[keyOf(row.studentId, field)];
      if (state?.status === "editing") update(keyOf(row.studentId, field), null);
      return;
    }
    if (!to) return;
    event.preventDefault();
    if (event.key === "Enter") commit(row, field);
    focusCell(to[0], to[1]);
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>, r: number, c: number) {
    if (!record.canEdit) return;
    const block = pastedBlock(event.clipboardData.getData("text/plain"));
    if (block.length === 1 && block[0]!.length === 1) return; // one value: pasted as typed
    event.preventDefault();
    block.forEach((values, i) => {
      const row = rows[r + i];
      if (!row) return;
      values.forEach((text, j) => {
        const field = recordFields[c + j];
        if (!field) return;
        if (text.trim() === valueText(row.values[field]?.value, t)) return;
        save(row, field, text.trim());
      });
    });
    setAnnounce(
      t("gradebook.announce.pasted", {
        count: block.length,
        label: cellLabel(t, recordFields[c]!, rows[r]!.name),
      }),
    );
  }

  const waiting = Object.entries(cells).filter(([, c]) => c.status === "unsaved");
  function retryAll() {
    for (const [key, state] of waiting) {
      const [studentId, field] = key.split(":") as [string, RecordField];
      const row = rows.find((x) => x.studentId === studentId);
      if (row) save(row, field, state.text);
    }
  }

  const cellProps = (row: RecordRow, r: number, field: RecordField, c: number) => {
    const key = keyOf(row.studentId, field);
    return {
      id: `${gridId}-${r}-${c}`,
      state: cells[key],
      shown: cells[key]?.text ?? valueText(row.values[field]?.value, t),
      setBy: setByText(t, intl.locale, row.values[field]),
      readOnly: !record.canEdit,
      numeric: field !== "sat",
      inputRef: (el: HTMLInputElement | null) => {
        if (el) inputs.current.set(key, el);
        else inputs.current.delete(key);
      },
      onChange: (text: string) => update(key, { text, status: "editing" }),
      onBlur: () => commit(row, field),
      onRetry: () => {
        const state = cellsRef.current[key];
        if (state) save(row, field, state.text);
      },
    };
  };

  return (
    <>
      {record.canEdit ? (
        <p className="muted">{t("gradebook.help.edit")}</p>
      ) : (
        <p className="muted">{t("gradebook.help.read")}</p>
      )}
      {waiting.length > 0 ? (
        <div className="gradebook-pending" role="alert">
          <p>{t("gradebook.pending", { count: waiting.length })}</p>
          <Button variant="secondary" onClick={retryAll}>
            {t("gradebook.saveNow")}
          </Button>
        </div>
      ) : null}
      <p className="visually-hidden" role="status">
        {announce}
      </p>
      {narrow ? (
        <StudentForm rows={rows} cellProps={cellProps} onHistory={setHistoryOf} />
      ) : (
        <ScrollTable
          className="gradebook-wrap"
          label={t("gradebook.table")}
          tableClassName="gradebook"
          caption={t("gradebook.caption")}
          columns={[
            t("gradebook.student"),
            ...recordFields.map((f) => columnHeading(t, f)),
            t("gradebook.history"),
          ]}
        >
          {rows.map((row, r) => (
            <tr key={row.studentId}>
              <th scope="row">{row.name}</th>
              {recordFields.map((field, c) => (
                <td key={field}>
                  <CellInput
                    {...cellProps(row, r, field, c)}
                    label={cellLabel(t, field, row.name)}
                    onKeyDown={(e) => onKeyDown(e, r, c)}
                    onPaste={(e) => onPaste(e, r, c)}
                  />
                </td>
              ))}
              <td>
                <Button variant="ghost" onClick={() => setHistoryOf(row)}>
                  {intl.formatMessage({ id: "gradebook.historyOf" }, { name: row.name, hidden })}
                </Button>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
      {historyOf ? (
        <RecordHistory classId={classId} row={historyOf} onClose={() => setHistoryOf(null)} />
      ) : null}
      {record.canEdit ? <RecordImport classId={classId} /> : null}
    </>
  );
}

interface CellProps {
  id: string;
  label: string;
  state: CellState | undefined;
  shown: string;
  setBy: string;
  readOnly: boolean;
  numeric: boolean;
  inputRef: (el: HTMLInputElement | null) => void;
  onChange: (text: string) => void;
  onBlur: () => void;
  onRetry: () => void;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  onPaste?: (event: ClipboardEvent<HTMLInputElement>) => void;
  visibleLabel?: ReactNode;
}

function CellInput(p: CellProps) {
  const status = p.state?.status;
  const statusId = `${p.id}-status`;
  const setById = `${p.id}-by`;
  const { intl, t } = useT();
  return (
    <div className={`gradebook-cell${status ? ` gradebook-${status}` : ""}`}>
      {p.visibleLabel ? (
        <label className="field-label" htmlFor={p.id}>
          {p.visibleLabel}
        </label>
      ) : null}
      <input
        ref={p.inputRef}
        id={p.id}
        className="input gradebook-input"
        aria-label={p.visibleLabel ? undefined : p.label}
        inputMode={p.numeric ? "numeric" : "text"}
        autoComplete="off"
        value={p.shown}
        readOnly={p.readOnly}
        title={p.setBy}
        aria-invalid={status === "refused" || undefined}
        aria-describedby={`${statusId} ${setById}`}
        onChange={(e) => p.onChange(e.target.value)}
        onBlur={p.onBlur}
        onKeyDown={p.onKeyDown}
        onPaste={p.onPaste}
        onFocus={(e) => e.currentTarget.select()}
      />
      <span id={setById} className={p.visibleLabel ? "gradebook-by muted" : "visually-hidden"}>
        {p.setBy}
      </span>
      <span id={statusId} className="gradebook-status">
        {status === "saving" ? t("gradebook.saving") : null}
        {status === "saved" ? t("gradebook.saved") : null}
        {status === "refused" ? <span className="field-error">{p.state?.reason}</span> : null}
        {status === "unsaved" ? (
          <span className="field-error">{t("gradebook.notSaved")}</span>
        ) : null}
      </span>
      {status === "unsaved" ? (
        <Button variant="ghost" className="gradebook-retry" onClick={p.onRetry}>
          {intl.formatMessage({ id: "gradebook.retry" }, { label: p.label, hidden })}
        </Button>
      ) : null}
    </div>
  );
}

/** A phone's gradebook: one student at a time, chosen from a list or by previous and next. */
function StudentForm({
  rows,
  cellProps,
  onHistory,
}: {
  rows: RecordRow[];
  cellProps: (row: RecordRow, r: number, field: RecordField, c: number) => Omit<CellProps, "label">;
  onHistory: (row: RecordRow) => void;
}) {
  const [at, setAt] = useState(0);
  const pickerId = useId();
  const { intl, t } = useT();
  const r = Math.min(at, rows.length - 1);
  const row = rows[r]!;
  return (
    <div className="gradebook-form">
      <div className="field">
        <label className="field-label" htmlFor={pickerId}>
          {t("gradebook.student")}
        </label>
        <select
          id={pickerId}
          className="input"
          value={row.studentId}
          onChange={(e) => setAt(rows.findIndex((x) => x.studentId === e.target.value))}
        >
          {rows.map((x) => (
            <option key={x.studentId} value={x.studentId}>
              {x.name}
            </option>
          ))}
        </select>
      </div>
      <div className="actions">
        <Button variant="secondary" disabled={r === 0} onClick={() => setAt(r - 1)}>
          {t("gradebook.previous")}
        </Button>
        <Button variant="secondary" disabled={r === rows.length - 1} onClick={() => setAt(r + 1)}>
          {t("gradebook.next")}
        </Button>
        <Button variant="ghost" onClick={() => onHistory(row)}>
          {intl.formatMessage({ id: "gradebook.historyOf" }, { name: row.name, hidden })}
        </Button>
      </div>
      <fieldset className="gradebook-fields">
        <legend>
          {t("gradebook.position", { name: row.name, position: r + 1, total: rows.length })}
        </legend>
        {recordFields.map((field, c) => (
          <CellInput
            key={`${row.studentId}-${field}`}
            {...cellProps(row, r, field, c)}
            label={cellLabel(t, field, row.name)}
            visibleLabel={fieldLabel(t, field)}
          />
        ))}
      </fieldset>
    </div>
  );
}
