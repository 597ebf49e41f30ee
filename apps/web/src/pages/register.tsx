import type { FormEvent } from "react";
import { Link, Navigate, useNavigate } from "react-router";
import { useSetupState } from "../api/site.ts";
import { useSession } from "../auth/session.tsx";
import { AuthCard, AuthForm } from "../components/auth-card.tsx";
import { EmailField, Field, PasswordField } from "../components/field.tsx";
import { Select } from "../components/select.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { useRegister } from "../features/sign-up/api.ts";
import { type PageIntl, useT } from "../i18n/intl.tsx";

/** What the login page says after a sign-up: the contract's text, then what happens next. */
export function registeredNotice(intl: PageIntl, email: string, waitsForApproval: boolean): string {
  return [
    intl.formatMessage({ id: "messages.registrationSuccess" }),
    intl.formatMessage({ id: "register.notice.code" }, { email }),
    ...(waitsForApproval ? [intl.formatMessage({ id: "register.notice.approval" })] : []),
  ].join(" ");
}

/** Under the Role choice, when Teacher is chosen: what a teacher's sign-up needs here. */
function teacherHint(intl: PageIntl, signup: "approval" | "closed" | "open"): string | undefined {
  if (signup === "approval") return intl.formatMessage({ id: "register.teacherHint.approval" });
  if (signup === "closed") return intl.formatMessage({ id: "register.teacherHint.closed" });
  return undefined;
}

export default function Register() {
  const navigate = useNavigate();
  const { intl, t } = useT();
  const roleOptions = [
    { value: "student", label: t("register.role.student") },
    { value: "teacher", label: t("register.role.teacher") },
  ];
  const form = useFormFields({
    name: "",
    email: "",
    password: "",
    role: "student",
    dateOfBirth: "",
  });
  const registering = useRegister();
  const { status } = useSession();
  const setup = useSetupState();
  // Under the consent legal basis a student gives their date of birth: a guardian consents for
  // one under the age of digital consent. Elsewhere it is neither asked nor sent.
  const asksDateOfBirth = setup?.legalBasis === "consent" && form.values.role !== "teacher";

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    // The login page comes next: fetch its code meanwhile, so that the page changes with the
    // address (until its chunk arrives the router keeps this form on screen under /login).
    void import("./login.tsx").catch(() => {});
    const { dateOfBirth, ...values } = form.values;
    registering.mutate(asksDateOfBirth ? { ...values, dateOfBirth } : values, {
      // The contract's alert stays; the login page then says the same on the page, with what comes next
      // (the emailed code, and for a teacher the admin's approval).
      onSuccess: ({ user }, sent) => {
        window.alert(t("messages.registrationSuccess"));
        navigate("/login", {
          state: { notice: registeredNotice(intl, sent.email, user.pendingRole === "teacher") },
        });
      },
      // A field's message is shown beside it; the paragraph keeps what belongs to no field.
      onError: form.refused,
    });
  }

  // Signed in already: a second account is not what this person came for.
  if (status === "signedIn") return <Navigate to="/Home" replace />;

  return (
    <AuthCard
      title={t("register.title")}
      description={t("register.description")}
      links={
        <span>
          {intl.formatMessage(
            { id: "register.links" },
            {
              login: (text) => <Link to="/login">{text}</Link>,
              privacy: (text) => <Link to="/privacy">{text}</Link>,
            },
          )}
        </span>
      }
    >
      <AuthForm
        onSubmit={onSubmit}
        loading={registering.isPending || registering.isSuccess}
        submitLabel={t("register.submit")}
      >
        <Field
          label={t("register.name")}
          autoComplete="name"
          required
          maxLength={100}
          {...form.field("name")}
        />
        <EmailField label={t("register.email")} required {...form.field("email")} />
        <PasswordField
          label={t("register.password")}
          fresh
          hint={t("register.password.hint")}
          {...form.field("password")}
        />
        <Select
          label={t("register.role")}
          options={roleOptions}
          hint={
            form.values.role === "teacher" && setup
              ? teacherHint(intl, setup.teacherSignup)
              : undefined
          }
          {...form.field("role")}
        />
        {asksDateOfBirth ? (
          <Field
            label={t("register.dateOfBirth")}
            type="date"
            autoComplete="bday"
            required
            max={new Date().toISOString().slice(0, 10)}
            hint={t("register.dateOfBirth.hint")}
            {...form.field("dateOfBirth")}
          />
        ) : null}
        <p className="form-error" role="alert">
          {form.message}
        </p>
      </AuthForm>
    </AuthCard>
  );
}
