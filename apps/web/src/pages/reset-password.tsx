import { passwordLimits } from "@gradecast/contract/password-limits";
import type { FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Alert } from "../components/alert.tsx";
import { AuthCard, AuthForm } from "../components/auth-card.tsx";
import { PasswordField } from "../components/field.tsx";
import { useFormFields } from "../components/use-form-fields.ts";
import { useResetPassword } from "../features/sign-up/api.ts";
import { useT } from "../i18n/intl.tsx";

/** The target of the emailed reset link: /reset-password?token=… */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const form = useFormFields({ password: "", confirm: "" });
  const resetting = useResetPassword();
  const { intl, t } = useT();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    const { password, confirm } = form.values;
    if (password !== confirm) {
      form.setErrors({ confirm: t("reset.mismatch") });
      return;
    }
    resetting.mutate(
      { token, password },
      {
        onSuccess: () => navigate("/login", { replace: true, state: { notice: t("reset.done") } }),
        onError: form.refused,
      },
    );
  }

  if (!token) {
    return (
      <AuthCard title={t("reset.title")}>
        <Alert tone="error">
          <p>{t("reset.incomplete")}</p>
        </Alert>
        <p>
          <Link to="/forgot-password">{t("reset.askAgain")}</Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("reset.title")} description={t("reset.description")}>
      <AuthForm
        onSubmit={onSubmit}
        loading={resetting.isPending || resetting.isSuccess}
        submitLabel={t("reset.submit")}
      >
        <PasswordField
          label={t("reset.password")}
          fresh
          hint={intl.formatMessage({ id: "reset.passwordHint" }, { min: passwordLimits.min })}
          {...form.field("password")}
        />
        <PasswordField
          label={t("reset.confirm")}
          autoComplete="new-password"
          {...form.field("confirm")}
        />
        {form.message ? (
          <Alert tone="error">
            <p>{form.message}</p>
            <p>
              <Link to="/forgot-password">{t("reset.askAgain")}</Link>
            </p>
          </Alert>
        ) : null}
      </AuthForm>
    </AuthCard>
  );
}
