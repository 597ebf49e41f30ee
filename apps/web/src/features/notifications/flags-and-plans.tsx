import { type FlagJudgement, flagJudgements, type Plan } from "@gradecast/contract/alerts";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { formErrors } from "../../api/form-errors.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { Field, TextArea } from "../../components/field.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { Select } from "../../components/select.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { useFormats } from "../../components/use-formats.ts";
import { useT } from "../../i18n/intl.tsx";
import { CancellableClassForm } from "../classes/class-form.tsx";
import { useClassRisk } from "../classes/risk-api.ts";
import { useCreatePlan, useFlags, useJudgeFlag, usePlans, useUpdatePlan } from "./api.ts";
import "./notifications.css";

// Issue 32, on a class's page for its teachers: each at-risk student's flag, judged
// "acknowledged", "not useful" or "incorrectly flagged" (the evaluation page sums the judgements
// per model version), and intervention plans (tier, owner, goal, review date), overdue reviews
// first, each closed with an outcome.

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

const judgementKeys: Record<FlagJudgement, string> = {
  acknowledged: "flags.plans.judgement.acknowledged",
  not_useful: "flags.plans.judgement.not_useful",
  incorrect: "flags.plans.judgement.incorrect",
};

const hidden = (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>;

/** The card's words in the page's language. */
function useWords() {
  const { intl, t } = useT();
  return {
    intl,
    t,
    judgement: (j: FlagJudgement) => intl.formatMessage({ id: judgementKeys[j] }),
  };
}

export default function FlagsAndPlans({
  classId,
  teachers,
  myId,
}: {
  classId: string;
  teachers: readonly { id: string; name: string }[];
  myId: string;
}) {
  const risk = useClassRisk(classId, true);
  const flags = useFlags(classId, true);
  const plans = usePlans(classId, true);
  const [planFor, setPlanFor] = useState<{ id: string; name: string } | null>(null);
  const [notice, setNotice] = useState("");
  const { t } = useWords();

  const flagged = risk.data?.items.filter((i) => i.atRisk && !i.updating) ?? [];
  return (
    <Card title={t("flags.plans.title")} className="flags-card">
      <p className="muted">{t("flags.plans.intro")}</p>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <h3>{t("flags.plans.flagged")}</h3>
      {risk.isPending || flags.isPending ? (
        <Spinner label={t("flags.plans.loadingFlags")} />
      ) : risk.isError ? (
        <ErrorState query={risk} />
      ) : flags.isError ? (
        <ErrorState query={flags} />
      ) : flagged.length === 0 ? (
        <EmptyState title={t("flags.plans.noFlag")}>{t("flags.plans.noFlagHint")}</EmptyState>
      ) : (
        <ul className="flag-list">
          {flagged.map((item) => (
            <FlagRow
              key={item.studentId}
              classId={classId}
              student={{ id: item.studentId, name: item.name }}
              current={flags.data?.items.find((f) => f.studentId === item.studentId)?.judgement}
              onPlan={() => {
                setNotice("");
                setPlanFor({ id: item.studentId, name: item.name });
              }}
            />
          ))}
        </ul>
      )}
      {planFor ? (
        <PlanForm
          classId={classId}
          student={planFor}
          teachers={teachers}
          myId={myId}
          onClose={(saved) => {
            if (saved) setNotice(t("flags.plans.started", { name: planFor.name }));
            setPlanFor(null);
          }}
        />
      ) : null}
      <h3>{t("flags.plans.plans")}</h3>
      <QueryView query={plans} loading={t("flags.plans.loadingPlans")}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState title={t("flags.plans.noPlan")}>{t("flags.plans.noPlanHint")}</EmptyState>
          ) : (
            <ul className="plan-list" data-testid="plan-list">
              {data.items.map((p) => (
                <PlanRow key={p.id} classId={classId} plan={p} />
              ))}
            </ul>
          )
        }
      </QueryView>
    </Card>
  );
}

function FlagRow({
  classId,
  student,
  current,
  onPlan,
}: {
  classId: string;
  student: { id: string; name: string };
  current: FlagJudgement | undefined;
  onPlan: () => void;
}) {
  const judge = useJudgeFlag(classId);
  const [judgement, setJudgement] = useState<FlagJudgement | "">(current ?? "");
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const { intl, t, judgement: judgementText } = useWords();
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    if (!judgement) {
      setError(t("flags.plans.chooseJudgement"));
      return;
    }
    judge.mutate(
      { studentId: student.id, judgement, reason: reason.trim() || undefined },
      { onError: (err) => setError(formErrors(err, ["judgement", "reason"]).message ?? undefined) },
    );
  }
  return (
    <li className="flag-row" data-testid="flag-row">
      <strong>{student.name}</strong>
      {current ? (
        <span className="tag tag-ok"> {judgementText(current)}</span>
      ) : (
        <span className="tag tag-warn"> {t("flags.plans.notJudged")}</span>
      )}
      <form className="flag-form" onSubmit={submit} noValidate>
        <Select
          label={t("flags.plans.judgeLabel", { name: student.name })}
          options={flagJudgements.map((j) => ({ value: j, label: judgementText(j) }))}
          placeholder={t("flags.plans.choose")}
          value={judgement}
          onChange={(e) => setJudgement(e.target.value as FlagJudgement | "")}
          error={error}
        />
        <Field
          label={t("flags.plans.reason")}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="actions">
          <Button type="submit" variant="secondary" loading={judge.isPending}>
            {intl.formatMessage(
              { id: "flags.plans.saveJudgement" },
              { name: student.name, hidden },
            )}
          </Button>
          <Button type="button" variant="ghost" onClick={onPlan}>
            {intl.formatMessage({ id: "flags.plans.startPlan" }, { name: student.name, hidden })}
          </Button>
        </div>
      </form>
    </li>
  );
}

function PlanForm({
  classId,
  student,
  teachers,
  myId,
  onClose,
}: {
  classId: string;
  student: { id: string; name: string };
  teachers: readonly { id: string; name: string }[];
  myId: string;
  onClose: (saved: boolean) => void;
}) {
  const create = useCreatePlan(classId);
  const titleId = useId();
  const form = useFormFields({ tier: "1", ownerId: myId, goal: "", reviewOn: inDays(14) });
  const { values } = form;
  const { t } = useWords();
  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    create.mutate(
      {
        studentId: student.id,
        plan: {
          tier: Number(values.tier) as 1 | 2 | 3,
          ownerId: values.ownerId,
          goal: values.goal,
          reviewOn: values.reviewOn,
        },
      },
      {
        onSuccess: () => onClose(true),
        onError: form.refused,
      },
    );
  }
  return (
    <section className="plan-form" aria-labelledby={titleId}>
      <h3 id={titleId}>{t("flags.plans.planFor", { name: student.name })}</h3>
      <CancellableClassForm
        onSubmit={submit}
        busy={create.isPending}
        submitLabel={t("flags.plans.start")}
        cancelLabel={t("flags.plans.cancel")}
        onCancel={() => onClose(false)}
        message={form.message}
      >
        <Select
          label={t("flags.plans.tier")}
          hint={t("flags.plans.tierHint")}
          options={["1", "2", "3"].map((tier) => ({
            value: tier,
            label: t("flags.plans.tierN", { tier }),
          }))}
          {...form.field("tier")}
        />
        <Select
          label={t("flags.plans.owner")}
          hint={t("flags.plans.ownerHint")}
          options={teachers.map((t) => ({ value: t.id, label: t.name }))}
          {...form.field("ownerId")}
        />
        <TextArea label={t("flags.plans.goal")} rows={3} maxLength={1000} {...form.field("goal")} />
        <Field
          label={t("flags.plans.reviewDate")}
          type="date"
          min={today()}
          {...form.field("reviewOn")}
        />
      </CancellableClassForm>
    </section>
  );
}

function PlanRow({ classId, plan }: { classId: string; plan: Plan }) {
  const update = useUpdatePlan(classId);
  const [closing, setClosing] = useState(false);
  const [outcome, setOutcome] = useState("");
  const [error, setError] = useState<string | undefined>();
  const { intl, t } = useWords();
  const formats = useFormats();
  function close(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    update.mutate(
      { planId: plan.id, change: { outcome } },
      {
        onSuccess: () => setClosing(false),
        onError: (err) => {
          const split = formErrors(err, ["outcome"]);
          setError(split.fields.outcome ?? split.message ?? undefined);
        },
      },
    );
  }
  return (
    <li className={plan.overdue ? "plan-row plan-overdue" : "plan-row"} data-testid="plan-row">
      <p>
        {intl.formatMessage(
          { id: "flags.plans.row" },
          {
            name: plan.student.name,
            tier: plan.tier,
            owner: plan.owner?.name ?? t("flags.plans.nobody"),
            // English keeps the day as the answer writes it (2026-12-01)
            review: intl.locale === "en" ? plan.reviewOn : formats.day(plan.reviewOn),
            b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
          },
        )}
        {plan.overdue ? <span className="tag tag-warn"> {t("flags.plans.overdue")}</span> : null}
        {plan.closedAt ? <span className="tag"> {t("flags.plans.closed")}</span> : null}
      </p>
      <p>{plan.goal}</p>
      {plan.outcome ? (
        <p className="muted">{t("flags.plans.outcome", { outcome: plan.outcome })}</p>
      ) : null}
      {!plan.closedAt && !closing ? (
        <Button variant="ghost" onClick={() => setClosing(true)}>
          {intl.formatMessage(
            { id: "flags.plans.closeWithOutcome" },
            { name: plan.student.name, hidden },
          )}
        </Button>
      ) : null}
      {closing ? (
        <CancellableClassForm
          onSubmit={close}
          busy={update.isPending}
          submitLabel={t("flags.plans.close")}
          cancelLabel={t("flags.plans.cancel")}
          onCancel={() => setClosing(false)}
        >
          <TextArea
            label={t("flags.plans.outcomeLabel", { name: plan.student.name })}
            rows={2}
            maxLength={1000}
            value={outcome}
            onChange={(e) => setOutcome(e.target.value)}
            error={error}
          />
        </CancellableClassForm>
      ) : null}
    </li>
  );
}
