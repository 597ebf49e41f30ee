import { type ClassView, subjectLabels } from "@gradecast/contract/classes";
import { type FormEvent, lazy, Suspense, useState } from "react";
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
function confirmWords(action: Confirm, className: string) {
  const danger = "danger" as const;
  switch (action.kind) {
    case "rotate":
      return {
        title: "Change the join code?",
        confirmLabel: "Change code",
        variant: "primary" as const,
        body: "Students who have not joined yet will need the new code.",
        done: "The join code has changed: the old one no longer works.",
      };
    case "disable":
      return {
        title: "Switch joining off?",
        confirmLabel: "Switch off",
        variant: danger,
        body: "Nobody can join with a code until you make a new one. Students already in the class stay.",
        done: "Joining is switched off: no code works until you switch it on again.",
      };
    case "delete":
      return {
        title: `Delete ${className}?`,
        confirmLabel: "Delete class",
        variant: danger,
        body: "This cannot be undone.",
        done: "",
      };
    default:
      return {
        title: `Remove ${action.name}?`,
        confirmLabel: "Remove",
        variant: danger,
        body:
          action.kind === "student"
            ? "They leave the class; their account stays. They can join again with the code."
            : "They no longer see or manage this class.",
        done: `${action.name} was removed from the class.`,
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

  if (klass.isPending) return <Spinner label="Loading the class..." className="spinner-page" />;
  if (klass.isError) {
    return (
      <div className="stack">
        <PageHeader title="Class" />
        <ErrorState title="This class could not be opened." query={klass} />
        <p>
          <ButtonLink to="/classes" variant="secondary">
            Back to classes
          </ButtonLink>
        </p>
      </div>
    );
  }
  const c = klass.data;
  const words = confirm ? confirmWords(confirm, c.name) : null;

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
    setNotice(confirmWords(action, c.name).done);
  }

  return (
    <div className="stack">
      <PageHeader
        title={c.name}
        description={`${subjectLabels[c.subject]} · ${c.year} · ${
          c.studentCount === 1 ? "1 student" : `${c.studentCount} students`
        }`}
        link={{ to: "/classes", label: "All classes" }}
      />
      <Alert tone="success">{notice}</Alert>
      <RiskList classId={id} />
      {user && c.teachers.some((t) => t.id === user.uid) ? (
        <Suspense fallback={<Spinner label="Loading flags and plans..." />}>
          <FlagsAndPlans classId={id} teachers={c.teachers} myId={user.uid} />
        </Suspense>
      ) : null}
      <Gradebook classId={id} />
      <JoinCodeCard c={c} onAsk={setConfirm} />
      <Card title="Students">
        {members.isPending ? (
          <Spinner label="Loading students..." />
        ) : members.isError ? (
          <ErrorState query={members} />
        ) : members.data.students.length === 0 && members.data.invitations.length === 0 ? (
          <EmptyState title="No students yet.">
            Give your students the join code, or import a class list below.
          </EmptyState>
        ) : (
          <>
            <ul className="member-list">
              {members.data.students.map((s) => (
                <li key={s.id} className="member">
                  <span>
                    {s.name} <span className="muted">({s.email})</span>
                  </span>
                  <Button
                    variant="ghost"
                    onClick={() => setConfirm({ kind: "student", id: s.id, name: s.name })}
                    aria-label={`Remove ${s.name} from the class`}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
            {members.data.invitations.length > 0 ? (
              <>
                <h3 className="member-heading">
                  Invited, not in the class yet ({members.data.invitations.length})
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
      <Card title="Delete the class">
        <p>
          The class, its join code and its enrolments are removed. Student accounts stay, and so do
          reports.
        </p>
        <div className="actions">
          <Button variant="danger" onClick={() => setConfirm({ kind: "delete" })}>
            Delete class
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

  function switchOn() {
    setError("");
    switching.mutate(true, {
      onSuccess: () => setShown(true),
      onError: (err) => setError(formErrors(err, []).message ?? ""),
    });
  }

  return (
    <Card title="Join code">
      {code ? (
        <>
          <p>Students type this code under "Join a class" on their Student Dashboard.</p>
          <p className="join-code" aria-live="polite">
            {shown ? (
              <span data-testid="join-code">{code}</span>
            ) : (
              <span className="muted">Hidden</span>
            )}
          </p>
          <div className="actions">
            <Button variant="secondary" onClick={() => setShown((s) => !s)}>
              {shown ? "Hide code" : "Show code"}
            </Button>
            <Button variant="secondary" onClick={() => onAsk({ kind: "rotate" })}>
              Change code
            </Button>
            <Button variant="ghost" onClick={() => onAsk({ kind: "disable" })}>
              Switch off
            </Button>
          </div>
        </>
      ) : (
        <>
          <p>Joining is switched off: no code works for this class.</p>
          <div className="actions">
            <Button onClick={switchOn} loading={switching.isPending}>
              Switch on with a new code
            </Button>
          </div>
        </>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </Card>
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

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    adding.mutate(form.values.email, {
      onSuccess: () => {
        form.setValues({ email: "" });
        onAdded("The teacher was added to the class.");
      },
      onError: form.refused,
    });
  }

  return (
    <Card title="Teachers">
      <ul className="member-list">
        {c.teachers.map((t) => (
          <li key={t.id} className="member">
            <span>
              {t.name} <span className="muted">({t.email})</span>
            </span>
            {c.teachers.length > 1 ? (
              <Button
                variant="ghost"
                onClick={() => onAsk({ kind: "teacher", id: t.id, name: t.name })}
                aria-label={`Remove ${t.name} from the class's teachers`}
              >
                Remove
              </Button>
            ) : (
              <span className="muted">The only teacher</span>
            )}
          </li>
        ))}
        {c.teachers.length === 0 ? <li className="muted">No teacher yet.</li> : null}
      </ul>
      <form className="class-form" onSubmit={submit} noValidate>
        <EmailField
          label="Add a teacher by email"
          hint="The email of an approved teacher account."
          autoComplete="off"
          {...form.field("email")}
        />
        <div className="actions">
          <Button type="submit" variant="secondary" loading={adding.isPending}>
            Add teacher
          </Button>
        </div>
      </form>
      {form.message ? <Alert tone="error">{form.message}</Alert> : null}
    </Card>
  );
}

function EditCard({ c, onSaved }: { c: ClassView; onSaved: (message: string) => void }) {
  const saving = useUpdateClass(c.id);
  const form = useFormFields<ClassFieldName>({ name: c.name, subject: c.subject, year: c.year });

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    const changes = Object.fromEntries(
      (["name", "subject", "year"] as const)
        .filter((k) => form.values[k] !== c[k])
        .map((k) => [k, form.values[k]]),
    );
    if (Object.keys(changes).length === 0) {
      form.setMessage("Nothing has changed.");
      return;
    }
    saving.mutate(changes, {
      onSuccess: () => onSaved("The class was saved."),
      onError: form.refused,
    });
  }

  return (
    <Card title="Edit the class">
      <form className="class-form" onSubmit={submit} noValidate>
        <ClassFields field={form.field} />
        <div className="actions">
          <Button type="submit" variant="secondary" loading={saving.isPending}>
            Save
          </Button>
        </div>
      </form>
      {form.message ? <Alert tone="error">{form.message}</Alert> : null}
    </Card>
  );
}
