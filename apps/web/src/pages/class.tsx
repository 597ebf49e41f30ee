import type { ClassView } from "@gradecast/contract/classes";
import { type FormEvent, lazy, type ReactNode, Suspense, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { formErrors } from "../api/form-errors.ts";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button, ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { ConfirmDialog } from "../components/confirm-dialog.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { EmailField } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { type MessageValues, type PageIntl, useIntl, useT } from "../i18n/intl.tsx";
import "../features/admin/admin.css";
import {
  useAddTeacher,
  useClass,
  useDeleteClass,
  useJoinCode,
  useMembers,
  useRemoveMember,
  useUpdateClass,
} from "../features/classes/api.ts";
import { type ClassFieldName, ClassFields } from "../features/classes/class-fields.tsx";
import { ClassForm } from "../features/classes/class-form.tsx";
import "../features/classes/classes.css";
import NotAllowed from "../components/not-allowed.tsx";
import { RiskList } from "../features/classes/risk-list.tsx";
import { RosterImport } from "../features/classes/roster-import.tsx";
import { Gradebook } from "../features/record/gradebook.tsx";

// Issue 32: flags and intervention plans, for the class's teachers, loaded with their code only then.
const FlagsAndPlans = lazy(() => import("../features/notifications/flags-and-plans.tsx"));

// /classes/:id (issue 17): one class for its teachers and admins: the join code (show, change,
// switch off), its teachers (add by email, remove), its students and open invitations (remove a
// student), the roster import, renaming and deleting. Every destructive action asks first.
// Issue 20: the risk list comes first, the place a teacher works from; issue 29: the gradebook
// (the class's school record, with its CSV import) next.

type Confirm =
  | { kind: "rotate" }
  | { kind: "disable" }
  | { kind: "delete" }
  | { kind: "student"; id: string; name: string }
  | { kind: "teacher"; id: string; name: string };

/** What the confirmation of an action says, and the notice once it is done. */
function confirmWords(action: Confirm, className: string, intl: PageIntl) {
  const t = (id: string, values?: MessageValues) => intl.formatMessage({ id }, values);
  const danger = "danger" as const;
  switch (action.kind) {
    case "rotate":
      return {
        title: t("class.rotate.title"),
        confirmLabel: t("class.rotate.confirm"),
        variant: "primary" as const,
        body: t("class.rotate.body"),
        done: t("class.rotate.done"),
      };
    case "disable":
      return {
        title: t("class.disable.title"),
        confirmLabel: t("class.disable.confirm"),
        variant: danger,
        body: t("class.disable.body"),
        done: t("class.disable.done"),
      };
    case "delete":
      return {
        title: t("class.delete.title", { name: className }),
        confirmLabel: t("class.delete.confirm"),
        variant: danger,
        body: t("class.delete.body"),
        done: "",
      };
    default:
      return {
        title: t("class.remove.title", { name: action.name }),
        confirmLabel: t("class.remove.confirm"),
        variant: danger,
        body:
          action.kind === "student" ? t("class.remove.studentBody") : t("class.remove.teacherBody"),
        done: t("class.remove.done", { name: action.name }),
      };
  }
}

export default function ClassPage() {
  const { user } = useSession();
  const { id = "" } = useParams();
  if (user?.role === "student") return <NotAllowed />;
  return <ClassScreen id={id} />;
}

function ClassScreen({ id }: { id: string }) {
  const { user } = useSession();
  const klass = useClass(id);
  const members = useMembers(id, klass.isSuccess);
  const joinCode = useJoinCode(id);
  const removeMember = useRemoveMember(id);
  const deleting = useDeleteClass(id);
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [notice, setNotice] = useState("");
  const { intl, t } = useT();

  if (klass.isPending) return <Spinner label={t("class.loading")} className="spinner-page" />;
  if (klass.isError) {
    return (
      <div className="stack">
        <PageHeader title={t("class.title")} />
        <ErrorState title={t("class.openFailed")} query={klass} />
        <p>
          <ButtonLink to="/classes" variant="secondary">
            {t("class.back")}
          </ButtonLink>
        </p>
      </div>
    );
  }
  const c = klass.data;
  const words = confirm ? confirmWords(confirm, c.name, intl) : null;

  async function run(action: Confirm) {
    if (action.kind === "rotate" || action.kind === "disable") {
      await joinCode.mutateAsync(action.kind === "rotate");
    } else if (action.kind === "student" || action.kind === "teacher") {
      await removeMember.mutateAsync({ kind: action.kind, uid: action.id });
    } else {
      await deleting.mutateAsync();
      navigate("/classes");
      return;
    }
    setConfirm(null);
    setNotice(confirmWords(action, c.name, intl).done);
  }

  return (
    <div className="stack">
      <PageHeader
        title={c.name}
        description={`${t(`questionnaire.subject.option.${c.subject}`)} · ${c.year} · ${t(
          "classes.studentCount",
          { count: c.studentCount },
        )}`}
        link={{ to: "/classes", label: t("class.allClasses") }}
      />
      <Alert tone="success">{notice}</Alert>
      <RiskList classId={id} />
      {user && c.teachers.some((teacher) => teacher.id === user.uid) ? (
        <Suspense fallback={<Spinner label={t("class.loadingFlags")} />}>
          <FlagsAndPlans classId={id} teachers={c.teachers} myId={user.uid} />
        </Suspense>
      ) : null}
      <Gradebook classId={id} />
      <JoinCodeCard c={c} onAsk={setConfirm} />
      <Card title={t("class.students.title")}>
        {members.isPending ? (
          <Spinner label={t("class.students.loading")} />
        ) : members.isError ? (
          <ErrorState query={members} />
        ) : members.data.students.length === 0 && members.data.invitations.length === 0 ? (
          <EmptyState title={t("class.students.empty.title")}>
            {t("class.students.empty.text")}
          </EmptyState>
        ) : (
          <>
            <ul className="member-list">
              {members.data.students.map((s) => (
                <Member key={s.id} member={s} kind="student" onAsk={setConfirm} />
              ))}
            </ul>
            {members.data.invitations.length > 0 ? (
              <>
                <h3 className="member-heading">
                  {t("class.students.invited", { count: members.data.invitations.length })}
                </h3>
                <ul className="member-list">
                  {members.data.invitations.map((i) => (
                    <li key={i.email} className="member muted">
                      {i.name} ({i.email})
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </>
        )}
      </Card>
      <RosterImport classId={id} />
      <TeachersCard c={c} onAsk={setConfirm} onAdded={setNotice} />
      <EditCard c={c} onSaved={setNotice} />
      <Card title={t("class.deleteCard.title")}>
        <p>{t("class.deleteCard.text")}</p>
        <div className="actions">
          <Button variant="danger" onClick={() => setConfirm({ kind: "delete" })}>
            {t("class.delete.confirm")}
          </Button>
        </div>
      </Card>
      {confirm && words ? (
        <ConfirmDialog
          title={words.title}
          confirmLabel={words.confirmLabel}
          variant={words.variant}
          onConfirm={() => run(confirm)}
          onClose={() => setConfirm(null)}
        >
          <p>{words.body}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function JoinCodeCard({ c, onAsk }: { c: ClassView; onAsk: (a: Confirm) => void }) {
  const [shown, setShown] = useState(false);
  const switching = useJoinCode(c.id);
  const [error, setError] = useState("");
  const code = c.joinCode ?? null;
  const { t } = useT();

  function switchOn() {
    setError("");
    switching.mutate(true, {
      onSuccess: () => setShown(true),
      onError: (err) => setError(formErrors(err, []).message ?? ""),
    });
  }

  return (
    <Card title={t("class.joinCode.title")}>
      {code ? (
        <>
          <p>{t("class.joinCode.where")}</p>
          <p className="join-code" aria-live="polite">
            {shown ? (
              <span data-testid="join-code">{code}</span>
            ) : (
              <span className="muted">{t("class.joinCode.hidden")}</span>
            )}
          </p>
          <div className="actions">
            <Button variant="secondary" onClick={() => setShown((s) => !s)}>
              {shown ? t("class.joinCode.hide") : t("class.joinCode.show")}
            </Button>
            <Button variant="secondary" onClick={() => onAsk({ kind: "rotate" })}>
              {t("class.rotate.confirm")}
            </Button>
            <Button variant="ghost" onClick={() => onAsk({ kind: "disable" })}>
              {t("class.disable.confirm")}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p>{t("class.joinCode.off")}</p>
          <div className="actions">
            <Button onClick={switchOn} loading={switching.isPending}>
              {t("class.joinCode.switchOn")}
            </Button>
          </div>
        </>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </Card>
  );
}

/** The remove button's accessible name, per kind of member. */
const removeKeys = {
  student: "class.students.remove",
  teacher: "class.teachers.remove",
} as const;

/**
 * A member of the class by name and email, and the button that asks to remove them (its
 * accessible name says whom), or instead why they stay (`kept`).
 */
function Member({
  member,
  kind,
  onAsk,
  kept = null,
}: {
  member: { id: string; name: string; email: string };
  kind: "student" | "teacher";
  onAsk: (a: Confirm) => void;
  kept?: ReactNode;
}) {
  const intl = useIntl();
  return (
    <li className="member">
      <span>
        {member.name} <span className="muted">({member.email})</span>
      </span>
      {kept ?? (
        <Button
          variant="ghost"
          onClick={() => onAsk({ kind, id: member.id, name: member.name })}
          aria-label={intl.formatMessage({ id: removeKeys[kind] }, { name: member.name })}
        >
          {intl.formatMessage({ id: "class.remove.confirm" })}
        </Button>
      )}
    </li>
  );
}

function TeachersCard({
  c,
  onAsk,
  onAdded,
}: {
  c: ClassView;
  onAsk: (a: Confirm) => void;
  onAdded: (message: string) => void;
}) {
  const adding = useAddTeacher(c.id);
  const form = useFormFields({ email: "" });
  const { t } = useT();

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    adding.mutate(form.values.email, {
      onSuccess: () => {
        form.setValues({ email: "" });
        onAdded(t("class.teachers.added"));
      },
      onError: form.refused,
    });
  }

  return (
    <Card title={t("class.teachers.title")}>
      <ul className="member-list">
        {c.teachers.map((teacher) => (
          <Member
            key={teacher.id}
            member={teacher}
            kind="teacher"
            onAsk={onAsk}
            kept={
              c.teachers.length > 1 ? null : (
                <span className="muted">{t("class.teachers.only")}</span>
              )
            }
          />
        ))}
        {c.teachers.length === 0 ? <li className="muted">{t("class.teachers.none")}</li> : null}
      </ul>
      <ClassForm
        onSubmit={submit}
        busy={adding.isPending}
        submitLabel={t("class.teachers.add")}
        message={form.message}
      >
        <EmailField
          label={t("class.teachers.email")}
          hint={t("class.teachers.emailHint")}
          autoComplete="off"
          {...form.field("email")}
        />
      </ClassForm>
    </Card>
  );
}

function EditCard({ c, onSaved }: { c: ClassView; onSaved: (message: string) => void }) {
  const saving = useUpdateClass(c.id);
  const form = useFormFields<ClassFieldName>({ name: c.name, subject: c.subject, year: c.year });
  const { t } = useT();

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    const changes = Object.fromEntries(
      (["name", "subject", "year"] as const)
        .filter((k) => form.values[k] !== c[k])
        .map((k) => [k, form.values[k]]),
    );
    if (Object.keys(changes).length === 0) {
      form.setMessage(t("class.edit.unchanged"));
      return;
    }
    saving.mutate(changes, {
      onSuccess: () => onSaved(t("class.edit.saved")),
      onError: form.refused,
    });
  }

  return (
    <Card title={t("class.edit.title")}>
      <ClassForm
        onSubmit={submit}
        busy={saving.isPending}
        submitLabel={t("class.edit.save")}
        message={form.message}
      >
        <ClassFields field={form.field} />
      </ClassForm>
    </Card>
  );
}
