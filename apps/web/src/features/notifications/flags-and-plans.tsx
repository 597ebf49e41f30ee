import {
  type FlagJudgement,
  flagJudgementLabels,
  flagJudgements,
  type Plan,
} from "@gradecast/contract/alerts";
import { type FormEvent, useId, useState } from "react";
import { formErrors } from "../../api/form-errors.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { Field, TextArea } from "../../components/field.tsx";
import { Select } from "../../components/select.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useClassRisk } from "../classes/risk-api.ts";
import { useCreatePlan, useFlags, useJudgeFlag, usePlans, useUpdatePlan } from "./api.ts";
import "./notifications.css";

// Issue 32, on a class's page for its teachers: each at-risk student's flag, judged
// "acknowledged", "not useful" or "incorrectly flagged" (the evaluation page sums the judgements
// per model version), and intervention plans (tier, owner, goal, review date), overdue reviews
// first, each closed with an outcome.

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

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

  const flagged = risk.data?.items.filter((i) => i.atRisk && !i.updating) ?? [];
  return (
    <Card title="Flags and intervention plans" className="flags-card">
      <p className="muted">
        Say whether each flag helps: your judgement is summed per model version on the "How the
        model did" page. Plans are seen by the class's teachers only; the audit log records who
        changed a plan and when, never its text.
      </p>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <h3>Students flagged at risk</h3>
      {risk.isPending || flags.isPending ? (
        <Spinner label="Loading the flags..." />
      ) : risk.isError ? (
        <ErrorState query={risk} />
      ) : flags.isError ? (
        <ErrorState query={flags} />
      ) : flagged.length === 0 ? (
        <EmptyState title="No student is flagged at risk.">
          Flags appear here when a student's latest prediction is at risk.
        </EmptyState>
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
            if (saved) setNotice(`The plan for ${planFor.name} was started.`);
            setPlanFor(null);
          }}
        />
      ) : null}
      <h3>Intervention plans</h3>
      {plans.isPending ? (
        <Spinner label="Loading the plans..." />
      ) : plans.isError ? (
        <ErrorState query={plans} />
      ) : plans.data.items.length === 0 ? (
        <EmptyState title="No plan yet.">
          Start one from a flagged student above: a tier, an owner, a goal and a review date.
        </EmptyState>
      ) : (
        <ul className="plan-list" data-testid="plan-list">
          {plans.data.items.map((p) => (
            <PlanRow key={p.id} classId={classId} plan={p} />
          ))}
        </ul>
      )}
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
  function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    if (!judgement) {
      setError("Choose a judgement.");
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
        <span className="tag tag-ok"> {flagJudgementLabels[current]}</span>
      ) : (
        <span className="tag tag-warn"> Not judged yet</span>
      )}
      <form className="flag-form" onSubmit={submit} noValidate>
        <Select
          label={`Judge the flag of ${student.name}`}
          options={flagJudgements.map((j) => ({ value: j, label: flagJudgementLabels[j] }))}
          placeholder="Choose…"
          value={judgement}
          onChange={(e) => setJudgement(e.target.value as FlagJudgement | "")}
          error={error}
        />
        <Field
          label="Reason (optional)"
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="actions">
          <Button type="submit" variant="secondary" loading={judge.isPending}>
            Save judgement<span className="visually-hidden"> of {student.name}'s flag</span>
          </Button>
          <Button type="button" variant="ghost" onClick={onPlan}>
            Start a plan<span className="visually-hidden"> for {student.name}</span>
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
  const [values, setValues] = useState({
    tier: "1",
    ownerId: myId,
    goal: "",
    reviewOn: inDays(14),
  });
  const fields = ["tier", "ownerId", "goal", "reviewOn"] as const;
  const [errors, setErrors] = useState<Partial<Record<(typeof fields)[number], string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setMessage(null);
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
        onError: (err) => {
          const split = formErrors(err, fields);
          setErrors(split.fields);
          setMessage(split.message);
        },
      },
    );
  }
  return (
    <section className="plan-form" aria-labelledby={titleId}>
      <h3 id={titleId}>Plan for {student.name}</h3>
      <form className="class-form" onSubmit={submit} noValidate>
        <Select
          label="Tier"
          hint="1: support in class; 2: targeted small-group help; 3: intensive, individual help."
          options={[
            { value: "1", label: "Tier 1" },
            { value: "2", label: "Tier 2" },
            { value: "3", label: "Tier 3" },
          ]}
          value={values.tier}
          onChange={(e) => setValues((v) => ({ ...v, tier: e.target.value }))}
          error={errors.tier}
        />
        <Select
          label="Owner"
          hint="One of the class's teachers, who reviews the plan."
          options={teachers.map((t) => ({ value: t.id, label: t.name }))}
          value={values.ownerId}
          onChange={(e) => setValues((v) => ({ ...v, ownerId: e.target.value }))}
          error={errors.ownerId}
        />
        <TextArea
          label="Goal"
          rows={3}
          maxLength={1000}
          value={values.goal}
          onChange={(e) => setValues((v) => ({ ...v, goal: e.target.value }))}
          error={errors.goal}
        />
        <Field
          label="Review date"
          type="date"
          min={today()}
          value={values.reviewOn}
          onChange={(e) => setValues((v) => ({ ...v, reviewOn: e.target.value }))}
          error={errors.reviewOn}
        />
        <div className="actions">
          <Button type="submit" loading={create.isPending}>
            Start plan
          </Button>
          <Button type="button" variant="ghost" onClick={() => onClose(false)}>
            Cancel
          </Button>
        </div>
      </form>
      {message ? <Alert tone="error">{message}</Alert> : null}
    </section>
  );
}

function PlanRow({ classId, plan }: { classId: string; plan: Plan }) {
  const update = useUpdatePlan(classId);
  const [closing, setClosing] = useState(false);
  const [outcome, setOutcome] = useState("");
  const [error, setError] = useState<string | undefined>();
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
        <strong>{plan.student.name}</strong> · Tier {plan.tier} · Owner{" "}
        {plan.owner?.name ?? "nobody"} · Review {plan.reviewOn}
        {plan.overdue ? <span className="tag tag-warn"> Review overdue</span> : null}
        {plan.closedAt ? <span className="tag"> Closed</span> : null}
      </p>
      <p>{plan.goal}</p>
      {plan.outcome ? <p className="muted">Outcome: {plan.outcome}</p> : null}
      {!plan.closedAt && !closing ? (
        <Button variant="ghost" onClick={() => setClosing(true)}>
          Close with an outcome
          <span className="visually-hidden"> (plan for {plan.student.name})</span>
        </Button>
      ) : null}
      {closing ? (
        <form className="class-form" onSubmit={close} noValidate>
          <TextArea
            label={`Outcome of the plan for ${plan.student.name}`}
            rows={2}
            maxLength={1000}
            value={outcome}
            onChange={(e) => setOutcome(e.target.value)}
            error={error}
          />
          <div className="actions">
            <Button type="submit" loading={update.isPending}>
              Close plan
            </Button>
            <Button type="button" variant="ghost" onClick={() => setClosing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
