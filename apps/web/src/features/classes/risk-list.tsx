import {
  type ClassRisk,
  noteLimits,
  passMark,
  type RiskItem,
  riskColumnsFor,
} from "@gradecast/contract/class-risk";
import { recordDiffers, recordInputKeys } from "@gradecast/contract/school-record";
import { shownScore } from "@gradecast/contract/score";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ChartCanvas } from "../../components/chart-canvas.tsx";
import type { ChartSize } from "../../components/echarts-canvas.ts";
import { EmptyState } from "../../components/empty-state.tsx";
import { Field, TextArea } from "../../components/field.tsx";
import { palette } from "../../components/palette.ts";
import { QueryView } from "../../components/query-view.tsx";
import { TableHead } from "../../components/table-head.tsx";
import { useDownload } from "../../components/use-download.ts";
import { useFormFields } from "../../components/use-form-fields.ts";
import { CancellableClassForm } from "./class-form.tsx";
import { downloadRisk, useAddNote, useClassRisk } from "./risk-api.ts";
import { useRiskText } from "./risk-text.ts";
import "./risk.css";
import { ScrollTable } from "../../components/scroll-table.tsx";

// The class risk list on /classes/:id (issue 20): every enrolled student sorted by risk with
// the reasons a teacher may see, a chart of how the class's predicted finals spread, a filter
// for the students at risk, the CSV export, and, for the class's teachers, a note of what was
// done for a student (an admin's list has no notes, so no notes column and no note form). The
// table's columns and texts are the CSV's (the contract's `riskColumnsFor` and `riskCells`); on
// a phone each row becomes a block of labelled lines. Issue 29: the record inputs of each
// prediction with their source (school or student), a mark when the student's answers differ
// from the record, when the prediction was made, and "Updating…" instead of a figure while a
// changed record is predicted again.

export function RiskList({ classId }: { classId: string }) {
  const risk = useClassRisk(classId, true);
  const [atRiskOnly, setAtRiskOnly] = useState(false);
  const [noteFor, setNoteFor] = useState<RiskItem | null>(null);
  const [notice, setNotice] = useState("");
  const filterId = useId();
  const { t } = useRiskText();

  const {
    running: exporting,
    error: exportError,
    start: exportCsv,
  } = useDownload(() => downloadRisk(classId));

  const actions = (
    <Button variant="secondary" onClick={exportCsv} loading={exporting} disabled={!risk.isSuccess}>
      {t("risk.export")}
    </Button>
  );

  return (
    <Card title={t("risk.title")} actions={actions} className="risk-card">
      <p className="muted">
        {t("risk.intro")}
        {risk.isSuccess && !risk.data.withNotes ? t("risk.notesHidden") : ""}
      </p>
      <p className="muted">{t("risk.oversight")}</p>
      {exportError ? <Alert tone="error">{exportError}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <QueryView query={risk} loading={t("risk.loading")}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState title={t("risk.empty.title")}>{t("risk.empty.body")}</EmptyState>
          ) : (
            <>
              <p className="risk-counts" data-testid="risk-counts">
                {countsText(data, t)}
              </p>
              <Distribution risk={data} />
              <div className="check-row">
                <input
                  id={filterId}
                  type="checkbox"
                  checked={atRiskOnly}
                  onChange={(e) => setAtRiskOnly(e.target.checked)}
                />
                <label htmlFor={filterId}>{t("risk.filter", { count: data.counts.atRisk })}</label>
              </div>
              <RiskTable
                items={data.items.filter((i) => !atRiskOnly || i.atRisk)}
                withNotes={data.withNotes}
                onNote={(item) => {
                  setNotice("");
                  setNoteFor(item);
                }}
              />
              {noteFor && data.withNotes ? (
                <NoteForm
                  classId={classId}
                  item={noteFor}
                  onClose={(saved) => {
                    const name = noteFor.name;
                    setNoteFor(null);
                    if (saved) setNotice(t("risk.noteSaved", { name }));
                    document.getElementById(noteButtonId(noteFor.studentId))?.focus();
                  }}
                />
              ) : null}
            </>
          )
        }
      </QueryView>
    </Card>
  );
}

function countsText(r: ClassRisk, t: ReturnType<typeof useRiskText>["t"]): string {
  const { students, answered, atRisk } = r.counts;
  return t("risk.counts", { students, atRisk, waiting: students - answered });
}

const noteButtonId = (studentId: string) => `note-${studentId}`;

function RiskTable({
  items,
  withNotes,
  onNote,
}: {
  items: RiskItem[];
  withNotes: boolean;
  onNote: (item: RiskItem) => void;
}) {
  const words = useRiskText();
  const { t } = words;
  if (items.length === 0) {
    return <p className="muted">{t("risk.noneAtRisk")}</p>;
  }
  const riskColumns = riskColumnsFor(withNotes);
  const reasonsAt = riskColumns.indexOf("Reasons");
  const noteAt = riskColumns.indexOf("Latest note");
  const riskAt = riskColumns.indexOf("At risk");
  const answeredAt = riskColumns.indexOf("Answered on");
  const predictedAt = riskColumns.indexOf("Predicted on");
  const inputsAt = riskColumns.indexOf("Record inputs");
  const finalAt = riskColumns.indexOf("Predicted final");
  // Columns a prediction made before them cannot fill (issue 28): a dash with the reason.
  const newerAt = [
    riskColumns.indexOf("Risk of not sitting the final"),
    riskColumns.indexOf("Model"),
  ];
  return (
    <ScrollTable
      className="risk-table-wrap"
      label={t("risk.table.label")}
      tableClassName="risk-table"
      caption={t("risk.table.caption")}
      columns={riskColumns.map(words.column)}
    >
      {items.map((item) => {
        const cells = words.cells(item);
        return (
          <tr
            key={item.studentId}
            className={item.atRisk ? "risk-row risk-row-at-risk" : "risk-row"}
            data-testid="risk-row"
          >
            {cells.map((text, i) => {
              const label = words.column(riskColumns[i]!);
              if (i === 0) {
                return (
                  <th key={label} scope="row" data-label={label}>
                    {text}
                  </th>
                );
              }
              let content: ReactNode = text;
              if (i === reasonsAt && item.reasons && !item.updating) {
                content = <Reasons item={item} />;
              }
              if (i === inputsAt && (item.inputs || item.differs)) {
                content = <RecordInputs item={item} />;
              }
              if (i === finalAt && item.updating) {
                content = <span className="risk-updating">{text}</span>;
              }
              if (i === predictedAt && item.predictedAt && !item.updating) {
                content = (
                  <time dateTime={item.predictedAt}>{words.formats.day(item.predictedAt)}</time>
                );
              }
              if (item.answered && !item.updating && text === "" && newerAt.includes(i)) {
                content = (
                  <>
                    <span aria-hidden="true">—</span>{" "}
                    <span className="muted risk-missing">{t("risk.beforeMeasure")}</span>
                  </>
                );
              }
              if (i === answeredAt && item.answeredAt) {
                content = (
                  <time dateTime={item.answeredAt}>{words.formats.day(item.answeredAt)}</time>
                );
              }
              if (i === riskAt && item.atRisk) {
                content = <span className="risk-flag">{text}</span>;
              }
              if (i === noteAt && item.notes) {
                content = (
                  <>
                    {text ? <span className="risk-note">{text}</span> : null}
                    {item.notes.length > 1 ? (
                      <span className="muted">
                        {" "}
                        {t("risk.notes.count", { count: item.notes.length })}
                      </span>
                    ) : null}
                    <Button
                      id={noteButtonId(item.studentId)}
                      variant="ghost"
                      className="risk-note-button"
                      onClick={() => onNote(item)}
                    >
                      {t("risk.notes.add")}
                      <span className="visually-hidden">
                        {t("risk.notes.about", { name: item.name })}
                      </span>
                    </Button>
                  </>
                );
              }
              return (
                <td key={label} data-label={label}>
                  {content}
                </td>
              );
            })}
          </tr>
        );
      })}
    </ScrollTable>
  );
}

/**
 * The school-record inputs of the prediction, each with where it came from (issue 29), and a
 * mark when the student's own answers differ from the record (nothing else of them is shown).
 */
function RecordInputs({ item }: { item: RiskItem }) {
  const words = useRiskText();
  const { t } = words;
  return (
    <>
      {item.inputs ? (
        <ul className="risk-inputs">
          {recordInputKeys.map((key) => {
            const { value, source } = item.inputs![key];
            return (
              <li key={key}>
                {words.input(key, value, source).replace(/ \([^)]*\)$/, "")}{" "}
                <span
                  className={`tag risk-source ${source === "school" ? "tag-ok" : "tag-warn"}`}
                  title={
                    source === "school"
                      ? t("risk.source.school.title")
                      : t("risk.source.student.title")
                  }
                >
                  {words.source(source)}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {item.differs ? (
        <p className="risk-differs">
          <span className="tag tag-danger">{t("risk.differs")}</span>{" "}
          <span className="muted">{t("risk.differsExplained", recordDiffers)}</span>
        </p>
      ) : null}
    </>
  );
}

function Reasons({ item }: { item: RiskItem }) {
  const { t, reason } = useRiskText();
  return (
    <>
      <ul className="risk-reasons">
        {item.reasons!.map((r) => (
          <li key={r.feature}>{reason(r)}</li>
        ))}
      </ul>
      {item.explanation ? (
        <details className="risk-explanation">
          <summary>{t("risk.fullExplanation")}</summary>
          <ul className="risk-reasons">
            {item.explanation.map((r) => (
              <li key={r.feature}>{reason(r)}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

/** Predicted finals in bins of two points: 0 to under 2, ..., 18 to 20. */
function bins(items: RiskItem[]) {
  const counts = Array.from({ length: 10 }, () => 0);
  for (const item of items) {
    if (item.prediction === null) continue;
    const i = Math.min(9, Math.floor(shownScore(item.prediction) / 2));
    counts[i]! += 1;
  }
  return counts.map((count, i) => ({
    label: i === 9 ? "18-20" : `${i * 2}-${i * 2 + 2}`,
    count,
    under: (i + 1) * 2 <= passMark,
  }));
}

function Distribution({ risk }: { risk: ClassRisk }) {
  const data = bins(risk.items);
  const answered = risk.counts.answered;
  const under = risk.items.filter(
    (i) => i.prediction !== null && shownScore(i.prediction) < passMark,
  ).length;
  const headingId = useId();
  const { t } = useRiskText();
  if (answered === 0) {
    return <p className="muted">{t("risk.chart.none")}</p>;
  }
  const summary = t("risk.chart.summary", { answered, under, passMark });
  const option = (size: ChartSize) => ({
    animation: false,
    textStyle: { fontFamily: "system-ui, sans-serif", color: palette.text },
    grid: { left: 40, right: 16, top: 16, bottom: 48, containLabel: true },
    tooltip: { trigger: "axis", confine: true, renderMode: "richText" },
    xAxis: {
      type: "category",
      data: data.map((d) => d.label),
      name: t("risk.chart.axis"),
      nameLocation: "middle",
      nameGap: size.width < 480 ? 44 : 32,
      axisLabel: { color: palette.muted, rotate: size.width < 480 ? 45 : 0, interval: 0 },
    },
    yAxis: { type: "value", minInterval: 1, axisLabel: { color: palette.muted } },
    series: [
      {
        type: "bar",
        name: t("risk.chart.series"),
        data: data.map((d) => ({
          value: d.count,
          itemStyle: { color: d.under ? palette.danger : palette.primary },
        })),
      },
    ],
  });
  return (
    <figure className="risk-chart" aria-labelledby={headingId}>
      <h3 id={headingId} className="risk-chart-title">
        {t("risk.chart.title")}
      </h3>
      <p className="muted">
        {summary} {t("risk.chart.bars")}
      </p>
      <ChartCanvas option={option} label={summary} className="risk-chart-canvas" />
      <details className="chart-table">
        <summary>{t("risk.chart.table")}</summary>
        <table>
          <TableHead
            caption={t("risk.chart.caption")}
            columns={[t("risk.chart.column.final"), t("risk.chart.series")]}
          />
          <tbody>
            {data.map((d) => (
              <tr key={d.label}>
                <td>{d.label}</td>
                <td>{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

const today = () => {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

function NoteForm({
  classId,
  item,
  onClose,
}: {
  classId: string;
  item: RiskItem;
  onClose: (saved: boolean) => void;
}) {
  const adding = useAddNote(classId);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const actionId = useId();
  const form = useFormFields({ action: "", doneOn: today(), followUpOn: "" });
  const { values } = form;
  const { t, formats } = useRiskText();

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    const note = {
      action: values.action,
      doneOn: values.doneOn,
      followUpOn: values.followUpOn === "" ? null : values.followUpOn,
    };
    adding.mutate(
      { studentId: item.studentId, note },
      {
        onSuccess: () => onClose(true),
        onError: form.refused,
      },
    );
  }

  return (
    <section className="risk-note-form" aria-labelledby={`${actionId}-title`}>
      <h3 id={`${actionId}-title`} ref={headingRef} tabIndex={-1}>
        {t("risk.note.heading", { name: item.name })}
      </h3>
      {item.contest ? (
        <p>
          <strong>{t("risk.note.contest", { name: item.name })}</strong> {item.contest.reason}
        </p>
      ) : null}
      {item.notes && item.notes.length > 0 ? (
        <ul className="risk-notes">
          {item.notes.map((n) => (
            <li key={n.id}>
              <strong>{formats.day(n.doneOn)}</strong> ({n.author.name}): {n.action}
              {n.followUpOn ? t("risk.note.followUp", { date: formats.day(n.followUpOn) }) : ""}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="muted">{t("risk.note.seenBy")}</p>
      <CancellableClassForm
        onSubmit={submit}
        busy={adding.isPending}
        submitLabel={t("risk.note.save")}
        cancelLabel={t("risk.note.cancel")}
        onCancel={() => onClose(false)}
        message={form.message}
      >
        <TextArea
          id={actionId}
          label={t("risk.note.action")}
          rows={3}
          maxLength={noteLimits.action}
          {...form.field("action")}
        />
        <Field label={t("risk.note.doneOn")} type="date" {...form.field("doneOn")} />
        <Field
          label={t("risk.note.followUpOn")}
          type="date"
          min={values.doneOn || undefined}
          {...form.field("followUpOn")}
        />
      </CancellableClassForm>
    </section>
  );
}
