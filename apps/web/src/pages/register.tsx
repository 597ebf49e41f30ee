import type { User } from "@gradecast/contract/auth";
import { messages } from "@gradecast/contract/messages";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { api } from "../api/client.ts";
import { formErrors } from "../api/form-errors.ts";
import { Button } from "../components/button.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";

const roleOptions = [
  { value: "student", label: "Student" },
  { value: "teacher", label: "Teacher" },
] as const;

const fieldNames = ["name", "email", "password", "role"] as const;
type FieldName = (typeof fieldNames)[number];

export default function Register() {
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: "", email: "", password: "", role: "student" });
  const [error, setError] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [busy, setBusy] = useState(false);

  const set = (key: FieldName) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError("");
    setFieldErrors({});
    setBusy(true);
    // The login page comes next: fetch its code meanwhile, so that the page changes with the
    // address (until its chunk arrives the router keeps this form on screen under /login).
    void import("./login.tsx").catch(() => {});
    try {
      await api<{ user: User }>("POST", "/api/auth/register", form, { auth: false });
      window.alert(messages.registrationSuccess);
      navigate("/login");
    } catch (err) {
      // A field's message is shown beside it; the paragraph keeps what belongs to no field.
      const { fields, message } = formErrors(err, fieldNames);
      setFieldErrors(fields);
      setError(message ?? "");
      setBusy(false);
    }
  }

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeader title="Sign Up" description="Create your Gradecast account." />
        <form className="form" onSubmit={onSubmit}>
          <Field
            label="Name"
            name="name"
            autoComplete="name"
            required
            maxLength={100}
            value={form.name}
            onChange={set("name")}
            error={fieldErrors.name}
          />
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={set("email")}
            error={fieldErrors.email}
          />
          <Field
            label="Password"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            hint="At least 8 characters. A long phrase is easier to remember and harder to guess."
            value={form.password}
            onChange={set("password")}
            error={fieldErrors.password}
          />
          <Select
            label="Role"
            name="role"
            options={roleOptions}
            value={form.role}
            onChange={set("role")}
            error={fieldErrors.role}
          />
          <p className="form-error" role="alert">
            {error}
          </p>
          <Button type="submit" loading={busy} className="btn-block">
            Sign Up
          </Button>
        </form>
        <div className="auth-links">
          <span>
            Already have an account? <Link to="/login">Login</Link>
          </span>
        </div>
      </div>
    </div>
  );
}
