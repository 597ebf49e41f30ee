import type { Subject } from "@gradecast/contract/classes";
import type { FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useSession } from "../auth/session.tsx";
import { Card } from "../components/card.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { useClasses, useCreateClass } from "../features/classes/api.ts";
import { type ClassFieldName, ClassFields } from "../features/classes/class-fields.tsx";
import { ClassForm } from "../features/classes/class-form.tsx";
import { useIntl, useT } from "../i18n/intl.tsx";
import "../features/classes/classes.css";

// /classes (issue 17): a teacher's classes (an admin's view: every class of the school) and a
// form to create one. Each class opens its own page with members, join code and roster import.

export default function Classes() {
  const { user } = useSession();
  const classes = useClasses();
  const admin = user?.role === "admin";
  const { t } = useT();

  return (
    <div className="stack">
      <PageHeader
        title={t("classes.title")}
        description={admin ? t("classes.description.admin") : t("classes.description.teacher")}
      />
      <CreateClass />
      <Card title={admin ? t("classes.all") : t("classes.yours")}>
        {classes.isPending ? (
          <Spinner label={t("classes.loading")} />
        ) : classes.isError ? (
          <ErrorState query={classes} />
        ) : classes.data.length === 0 ? (
          <EmptyState title={t("classes.empty.title")}>{t("classes.empty.text")}</EmptyState>
        ) : (
          <ul className="class-list">
            {classes.data.map((c) => (
              <li key={c.id} className="class-item">
                <Link to={`/classes/${c.id}`} className="class-link">
                  {c.name}
                </Link>
                <span className="muted">
                  {t(`questionnaire.subject.option.${c.subject}`)} · {c.year} ·{" "}
                  {t("classes.studentCount", { count: c.studentCount })}
                </span>
                <span className="muted class-teachers">
                  {c.teachers.length > 0
                    ? t("classes.taughtBy", {
                        names: c.teachers.map((teacher) => teacher.name).join(", "),
                      })
                    : t("classes.noTeacher")}
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
  const intl = useIntl();

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
    <Card title={intl.formatMessage({ id: "classes.create.title" })}>
      <ClassForm
        onSubmit={submit}
        busy={creating.isPending || creating.isSuccess}
        submitLabel={intl.formatMessage({ id: "classes.create.submit" })}
        variant="primary"
        message={form.message}
      >
        <ClassFields field={form.field} examples />
      </ClassForm>
    </Card>
  );
}
