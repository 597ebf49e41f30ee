import { type Subject, subjectLabels } from "@gradecast/contract/classes";
import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { useClasses, useCreateClass } from "../features/classes/api.ts";
import { type ClassFieldName, ClassFields } from "../features/classes/class-fields.tsx";
import "../features/classes/classes.css";

// /classes (issue 17): a teacher's classes (an admin's view: every class of the school) and a
// form to create one. Each class opens its own page with members, join code and roster import.

export default function Classes() {
  const { user } = useSession();
  const classes = useClasses();
  const admin = user?.role === "admin";

  return (
    <div className="stack">
      <PageHeader
        title="Classes"
        description={
          admin
            ? "Every class of the school. Open one to see its teachers, students and join code."
            : "Your classes. Students join one with its join code, or you import a list of names and emails; only a class's teachers see its students."
        }
      />
      <CreateClass />
      <Card title={admin ? "All classes" : "Your classes"}>
        {classes.isPending ? (
          <Spinner label="Loading classes..." />
        ) : classes.isError ? (
          <ErrorState query={classes} />
        ) : classes.data.length === 0 ? (
          <EmptyState title="No classes yet.">
            Create a class above: you become its teacher and get a join code for your students.
          </EmptyState>
        ) : (
          <ul className="class-list">
            {classes.data.map((c) => (
              <li key={c.id} className="class-item">
                <Link to={`/classes/${c.id}`} className="class-link">
                  {c.name}
                </Link>
                <span className="muted">
                  {subjectLabels[c.subject]} · {c.year} ·{" "}
                  {c.studentCount === 1 ? "1 student" : `${c.studentCount} students`}
                </span>
                <span className="muted class-teachers">
                  {c.teachers.length > 0
                    ? `Taught by ${c.teachers.map((t) => t.name).join(", ")}`
                    : "No teacher yet"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function CreateClass() {
  const creating = useCreateClass();
  const navigate = useNavigate();
  const form = useFormFields<ClassFieldName>({ name: "", subject: "", year: "" });

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    const { name, subject, year } = form.values;
    creating.mutate(
      { name, subject: subject as Subject, year },
      { onSuccess: (created) => navigate(`/classes/${created.id}`), onError: form.refused },
    );
  }

  return (
    <Card title="Create a class">
      <form className="class-form" onSubmit={submit} noValidate>
        <ClassFields field={form.field} examples />
        <div className="actions">
          <Button type="submit" loading={creating.isPending || creating.isSuccess}>
            Create class
          </Button>
        </div>
      </form>
      {form.message ? <Alert tone="error">{form.message}</Alert> : null}
    </Card>
  );
}
