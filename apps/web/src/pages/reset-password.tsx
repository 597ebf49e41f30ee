import { passwordLimits } from "@gradecast/contract/password-limits";
import type { FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Alert } from "../components/alert.tsx";
import { AuthCard } from "../components/auth-card.tsx";
import { Button } from "../components/button.tsx";
import { PasswordField } from "../components/field.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { useResetPassword } from "../features/sign-up/api.ts";

export const passwordResetNotice = "Your password has been reset. Log in with your new password.";
const mismatch = "The two passwords do not match.";

/** The target of the emailed reset link: /reset-password?token=… */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const form = useFormFields({ password: "", confirm: "" });
  const resetting = useResetPassword();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    const { password, confirm } = form.values;
    if (password !== confirm) {
      form.setErrors({ confirm: mismatch });
      return;
    }
    resetting.mutate(
      { token, password },
      {
        onSuccess: () =>
          navigate("/login", { replace: true, state: { notice: passwordResetNotice } }),
        onError: form.refused,
      },
    );
  }

  if (!token) {
    return (
      <AuthCard title="Reset password">
        <Alert tone="error">
          <p>
            This reset link is incomplete. Open the link from the email again, or ask for a new one.
          </p>
        </Alert>
        <p>
          <Link to="/forgot-password">Ask for a new reset link</Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset password" description="Choose a new password for your account.">
      <form className="form" onSubmit={onSubmit}>
        <PasswordField
          label="New password"
          fresh
          hint={`At least ${passwordLimits.min} characters.`}
          {...form.field("password")}
        />
        <PasswordField
          label="Repeat the new password"
          autoComplete="new-password"
          {...form.field("confirm")}
        />
        {form.message ? (
          <Alert tone="error">
            <p>{form.message}</p>
            <p>
              <Link to="/forgot-password">Ask for a new reset link</Link>
            </p>
          </Alert>
        ) : null}
        <Button
          type="submit"
          loading={resetting.isPending || resetting.isSuccess}
          className="btn-block"
        >
          Set new password
        </Button>
      </form>
    </AuthCard>
  );
}
