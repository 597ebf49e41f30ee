import { messages } from "@gradecast/contract/messages";
import type { FormEvent } from "react";
import { Link, Navigate, useNavigate } from "react-router";
import { useSession } from "../auth/session.tsx";
import { AuthCard } from "../components/auth-card.tsx";
import { Button } from "../components/button.tsx";
import { EmailField, Field, PasswordField } from "../components/field.tsx";
import { Select } from "../components/select.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { useRegister } from "../features/sign-up/api.ts";

const roleOptions = [
  { value: "student", label: "Student" },
  { value: "teacher", label: "Teacher" },
] as const;

export default function Register() {
  const navigate = useNavigate();
  const form = useFormFields({ name: "", email: "", password: "", role: "student" });
  const registering = useRegister();
  const { status } = useSession();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    // The login page comes next: fetch its code meanwhile, so that the page changes with the
    // address (until its chunk arrives the router keeps this form on screen under /login).
    void import("./login.tsx").catch(() => {});
    registering.mutate(form.values, {
      onSuccess: () => {
        window.alert(messages.registrationSuccess);
        navigate("/login");
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
          Already have an account? <Link to="/login">Login</Link>
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
        <Select label="Role" options={roleOptions} {...form.field("role")} />
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
