import {
  type GateReportView,
  gateCoverageRange,
  gateReasons,
  type ModelState,
  type ModelVersionView,
} from "@gradecast/contract/model-lifecycle";
import { type ReactNode, useState } from "react";
import { formErrors } from "../../api/form-errors.ts";
import { Alert, ErrorAlert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { ScrollTable, type ScrollTableProps } from "../../components/scroll-table.tsx";
import { useFormats } from "../../components/use-formats.ts";
import { useIntl, useT } from "../../i18n/intl.tsx";
import { useReauth } from "../account-security/reauth.tsx";
import { downloadOutcomes, useModelState, useSwitchVersion, useTrain } from "./api.ts";
import "./model.css";

// /admin/model (issue 30): the version in use and its card, the outcomes the school has
// recorded per subject and setup, "Train a candidate" with the job's progress, each candidate's
// comparison with the model in use and the gate's reasons, promotion and rollback (both ask to
// confirm the password when the sign-in is older than ten minutes). The measures' names
// ("scoreIfSits RMSE") are the model's own. The gate's reasons are stored with each candidate in
// English; another language words them from the report's figures (contract gateReasons).

const subjectKeys: Record<string, string> = {
  mat: "questionnaire.subject.option.mat",
  por: "questionnaire.subject.option.por",
};
const setupKeys: Record<string, string> = {
  A: "model.setup.A",
  B: "model.setup.B",
  C: "model.setup.C",
};
const verdictKeys: Record<string, string> = {
  better: "model.verdict.better",
  "not worse": "model.verdict.notWorse",
  worse: "model.verdict.worse",
};
const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/** The screen's tables (the card, the outcomes, a candidate's comparison): one look. */
function ModelTable(props: Omit<ScrollTableProps, "className" | "tableClassName">) {
  return <ScrollTable className="model-scroll" tableClassName="model-table" {...props} />;
}

/**
 * The screen's words and figures in the page's language: RMSE and Brier with a fixed number of
 * decimals (0.830; 0,830), coverage in percent (84 %), times as the page writes them (English
 * keeps the browser's own, as before).
 */
function useModelText() {
  const { intl, t } = useT();
  const formats = useFormats();
  return {
    intl,
    t,
    f: (v: number | null, digits = 3) =>
      v === null
        ? "—"
        : intl.formatNumber(v, {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
            useGrouping: false,
          }),
    pct: (v: number | null) =>
      v === null ? "—" : t("model.percent", { value: intl.formatNumber(Math.round(100 * v)) }),
    when: (at: string | null) =>
      at ? (intl.locale === "en" ? new Date(at).toLocaleString() : formats.dayTime(at)) : "—",
    subject: (subject: string) => {
      const key = subjectKeys[subject];
      return key ? t(key) : subject;
    },
    setup: (setup: string) => {
      const key = setupKeys[setup];
      return key ? t(key) : setup;
    },
    verdict: (verdict: string) => {
      const key = verdictKeys[verdict];
      return key ? t(key) : verdict;
    },
    /**
     * The gate's reasons: in English as the gate stored them; in another language worded from
     * the report's figures (contract gateReasons), the measures and groups by the model's names.
     */
    gateReasons: (gate: GateReportView): string[] => {
      if (intl.locale === "en") return gate.reasons;
      const [low, high] = gateCoverageRange;
      const percent = (v: number) =>
        t("model.percent", { value: intl.formatNumber(Math.round(100 * v)) });
      const figure = (v: number | null) =>
        v === null ? "—" : intl.formatNumber(v, { maximumFractionDigits: 6, useGrouping: false });
      return gateReasons(gate).map((r) => {
        switch (r.code) {
          case "no_outcomes":
            return t("model.gate.reason.noOutcomes");
          case "few_outcomes":
            return t("model.gate.reason.fewOutcomes", {
              subject: subjectKeys[r.subject] ? t(subjectKeys[r.subject]!) : r.subject,
              outcomes: r.outcomes,
              needed: r.needed,
            });
          case "no_held_out":
            return t("model.gate.reason.noHeldOut");
          case "worse":
            return t("model.gate.reason.worse", {
              setup: r.setup,
              measure: r.measure,
              candidate: figure(r.candidate),
              current: figure(r.current),
            });
          case "coverage":
            return t("model.gate.reason.coverage", {
              coverage: percent(r.coverage),
              group: r.group,
              rows: r.rows,
              low: percent(low),
              high: percent(high),
            });
          case "monotone":
            return t("model.gate.reason.monotone");
        }
        return t("model.gate.reason.additivity");
      });
    },
  };
}

export function ModelView() {
  const state = useModelState();
  const intl = useIntl();
  return (
    <QueryView query={state} loading={intl.formatMessage({ id: "model.loading" })}>
      {(data) => <ModelScreen state={data} />}
    </QueryView>
  );
}

function ModelScreen({ state }: { state: ModelState }) {
  const reauth = useReauth();
  const train = useTrain();
  const promote = useSwitchVersion("promote");
  const rollback = useSwitchVersion("rollback");
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [exportError, setExportError] = useState("");
  const { intl, t, f, pct, when, subject: subjectName } = useModelText();

  async function startTraining() {
    setMessage(null);
    try {
      await train.mutateAsync();
      setMessage({ tone: "success", text: t("model.train.started") });
    } catch (err) {
      setMessage({ tone: "error", text: formErrors(err, []).message ?? t("model.train.failed") });
    }
  }

  async function switchTo(v: ModelVersionView, how: "promote" | "rollback") {
    setMessage(null);
    const mutation = how === "promote" ? promote : rollback;
    try {
      await reauth.run(() => mutation.mutateAsync(v.id));
      setMessage({
        tone: "success",
        text: t("model.switched", { id: v.id }),
      });
    } catch (err) {
      setMessage({ tone: "error", text: formErrors(err, []).message ?? t("model.unchanged") });
    }
  }

  const training = state.training;
  const candidates = state.versions.filter((v) => v.state === "candidate" || v.state === "refused");
  const earlier = state.versions.filter(
    (v) => v.state === "retired" && (v.shipped || v.promotedAt !== null),
  );

  return (
    <div className="stack model-screen">
      {reauth.dialog}
      {message ? (
        <Alert tone={message.tone} className="model-message">
          {message.text}
        </Alert>
      ) : null}

      <Card title={t("model.active.title")}>
        <p>
          <strong>{state.active.id}</strong>{" "}
          {state.active.shipped
            ? t("model.active.shipped")
            : t("model.active.school", { since: when(state.active.promotedAt) })}
        </p>
        <details>
          <summary>{t("model.card.summary")}</summary>
          <ModelTable
            label={t("model.card.region")}
            caption={t("model.card.caption")}
            columns={[
              t("model.column.subject"),
              t("model.column.setup"),
              t("model.column.protocol"),
              t("model.column.rmse"),
              t("model.column.brier"),
              t("model.column.coverage"),
            ]}
          >
            {state.card.map((c) => (
              <tr key={`${c.subject}-${c.setup}-${c.protocol}-${c.rmseSat}`}>
                <td>{subjectName(c.subject)}</td>
                <td>{c.setup}</td>
                <td>{c.protocol}</td>
                <td className="num">{f(c.rmseSat)}</td>
                <td className="num">{f(c.brier, 4)}</td>
                <td className="num">{pct(c.coverage)}</td>
              </tr>
            ))}
          </ModelTable>
        </details>
      </Card>

      <Card title={t("model.outcomes.title")}>
        <p>{t("model.outcomes.intro", { min: state.minOutcomes })}</p>
        <ModelTable
          label={t("model.outcomes.caption")}
          columns={[
            t("model.column.subject"),
            t("model.column.students"),
            ...["A", "B", "C"].map((setup) => t("model.column.setupOf", { setup })),
          ]}
        >
          {["mat", "por"].map((subject) => (
            <tr key={subject}>
              <td>{subjectName(subject)}</td>
              <td className="num">{state.students[subject] ?? 0}</td>
              {["A", "B", "C"].map((setup) => (
                <td key={setup} className="num">
                  {state.outcomes.find((o) => o.subject === subject && o.setup === setup)?.rows ??
                    0}
                </td>
              ))}
            </tr>
          ))}
        </ModelTable>
        <div className="model-actions">
          <Button
            onClick={startTraining}
            loading={train.isPending}
            disabled={training !== null}
            aria-describedby="model-train-help"
          >
            {t("model.train")}
          </Button>
          <Button
            variant="secondary"
            onClick={async () => {
              setExportError("");
              try {
                await downloadOutcomes();
              } catch (err) {
                setExportError(formErrors(err, []).message ?? "");
              }
            }}
          >
            {t("model.download")}
          </Button>
        </div>
        <p id="model-train-help" className="muted">
          {intl.formatMessage({ id: "model.train.help" }, { code })}
        </p>
        <ErrorAlert message={exportError} />
        {training ? (
          <div className="model-progress" aria-live="polite">
            <p>
              {training.state === "queued" ? t("model.train.queued") : t("model.train.running")}{" "}
              {training.progress.total
                ? t("model.train.steps", {
                    done: training.progress.done,
                    total: training.progress.total,
                  })
                : null}
            </p>
            <progress
              max={training.progress.total ?? 1}
              value={training.progress.total ? training.progress.done : undefined}
              aria-label={t("model.train.progress")}
            />
          </div>
        ) : null}
      </Card>

      <Card title={t("model.candidates.title")}>
        {candidates.length === 0 ? (
          <p>{t("model.candidates.none")}</p>
        ) : (
          candidates.map((v) => (
            <Candidate
              key={v.id}
              version={v}
              busy={promote.isPending}
              onPromote={() => switchTo(v, "promote")}
            />
          ))
        )}
      </Card>

      <Card title={t("model.earlier.title")}>
        {earlier.length === 0 ? (
          <p>{t("model.earlier.none")}</p>
        ) : (
          <ul className="model-versions">
            {earlier.map((v) => (
              <li key={v.id}>
                <span>
                  <strong>{v.id}</strong>{" "}
                  {v.shipped
                    ? t("model.earlier.shipped")
                    : t("model.earlier.from", { since: when(v.promotedAt) })}
                </span>
                <Button
                  variant="secondary"
                  loading={rollback.isPending && rollback.variables === v.id}
                  onClick={() => switchTo(v, "rollback")}
                >
                  {t("model.rollback")}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function Candidate({
  version,
  busy,
  onPromote,
}: {
  version: ModelVersionView;
  busy: boolean;
  onPromote: () => void;
}) {
  const gate = version.gate;
  const { t, f, when, setup, verdict, gateReasons: gateReasonTexts } = useModelText();
  const weights = version.weights
    .map((w) => t("model.candidate.weight", { setup: w.setup, weight: w.weight }))
    .join(", ");
  return (
    <section
      className="model-candidate"
      aria-label={t("model.candidate.label", { id: version.id })}
    >
      <h3>{version.id}</h3>
      <p className="muted">
        {t("model.candidate.trained", {
          when: when(version.createdAt),
          outcomes: version.outcomes,
          weights,
        })}
      </p>
      {gate ? (
        <>
          <ModelTable
            label={t("model.comparison.region", { id: version.id })}
            caption={t("model.comparison.caption")}
            columns={[
              t("model.column.setup"),
              t("model.column.measure"),
              t("model.column.rows"),
              t("model.column.inUse"),
              t("model.column.candidate"),
              t("model.column.bounds"),
              t("model.column.verdict"),
            ]}
          >
            {gate.comparison.map((c) => (
              <tr key={`${c.setup}-${c.measure}`}>
                <td>{setup(c.setup)}</td>
                <td>{c.measure}</td>
                <td className="num">{c.rows}</td>
                <td className="num">{f(c.current, 4)}</td>
                <td className="num">{f(c.candidate, 4)}</td>
                <td className="num">
                  {c.lower === null
                    ? "—"
                    : t("model.comparison.bounds", {
                        lower: f(c.lower, 4),
                        upper: f(c.upper, 4),
                      })}
                </td>
                <td className={c.verdict === "worse" ? "model-worse" : undefined}>
                  {verdict(c.verdict)}
                </td>
              </tr>
            ))}
          </ModelTable>
          {gate.promotable ? (
            <Alert tone="success" title={t("model.gate.passes")} />
          ) : (
            <Alert tone="warning" title={t("model.gate.refuses")}>
              <ul>
                {gateReasonTexts(gate).map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </Alert>
          )}
        </>
      ) : null}
      {version.state === "candidate" ? (
        <Button onClick={onPromote} loading={busy}>
          {t("model.promote")}
        </Button>
      ) : null}
    </section>
  );
}
