import { messages } from "@gradecast/contract/messages";
import type { FormEvent } from "react";
import { Link, Navigate, useNavigate } from "react-router";
import { useSetupState } from "../api/site.ts";
import { useSession } from "../auth/session.tsx";
import { AuthCard } from "../components/auth-card.tsx";
import { Button } from "../components/button.tsx";
import { EmailField, Field, PasswordField } from "../components/field.tsx";
import { Select } from "../components/select.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { useRegister } from "../features/sign-up/api.ts";

/** What the login page says after a sign-up: the contract's text, then what happens next. */
export function registeredNotice(email: string, waitsForApproval: boolean): string {
  return [
    messages.registrationSuccess,
    `We emailed a 6-digit code to ${email}: log in, then enter it on the Verify page.`,
    ...(waitsForApproval
      ? [
          "An admin must approve your teacher account: until then you use Gradecast as a student, and we email you when they decide.",
        ]
      : []),
  ].join(" ");
}

/** Under the Role choice, when Teacher is chosen: what a teacher's sign-up needs here. */
const teacherHints = {
  approval:
    "An admin must approve a teacher account. Until then you use Gradecast as a student; we email you when they decide.",
  closed:
    "Teacher accounts need an invitation from an admin: sign up with the address the invitation was sent to.",
  open: null,
} as const;

const roleOptions = [
  { value: "student", label: "Student" },
  { value: "teacher", label: "Teacher" },
] as const;

export default function Register() {
  const navigate = useNavigate();
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
        window.alert(messages.registrationSuccess);
        navigate("/login", {
          state: { notice: registeredNotice(sent.email, user.pendingRole === "teacher") },
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
      title="Sign Up"
      description="Create your Gradecast account."
      links={
        <span>
          Already have an account? <Link to="/login">Login</Link>. What we keep about you: the{" "}
          <Link to="/privacy">privacy notice</Link>.
        </span>
      }
    >
      <form className="form" onSubmit={onSubmit}>
        <Field label="Name" autoComplete="name" required maxLength={100} {...form.field("name")} />
        <EmailField label="Email" required {...form.field("email")} />
        <PasswordField
          label="Password"
          fresh
          hint="At least 8 characters. A long phrase is easier to remember and harder to guess."
          {...form.field("password")}
        />
        <Select
          label="Role"
          options={roleOptions}
          hint={
            form.values.role === "teacher" && setup ? teacherHints[setup.teacherSignup] : undefined
          }
          {...form.field("role")}
        />
        {asksDateOfBirth ? (
          <Field
            label="Date of birth"
            type="date"
            autoComplete="bday"
            required
            max={new Date().toISOString().slice(0, 10)}
            hint="Your school asks it to know whether a parent or guardian must agree before you answer the questionnaire."
            {...form.field("dateOfBirth")}
          />
        ) : null}
        <p className="form-error" role="alert">
          {form.message}
        </p>
        <Button
          type="submit"
          loading={registering.isPending || registering.isSuccess}
          className="btn-block"
        >
          Sign Up
        </Button>
      </form>
    </AuthCard>
  );
}
