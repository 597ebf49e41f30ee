import { messages } from "@gradecast/contract/messages";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { OutcomeAlert } from "../components/alert.tsx";
import { AuthCard, AuthForm } from "../components/auth-card.tsx";
import { EmailField } from "../components/field.tsx";
import { useForgotPassword } from "../features/sign-up/api.ts";
import { useT } from "../i18n/intl.tsx";

export default function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const asking = useForgotPassword();
  const { t } = useT();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResult(null);
    asking.mutate(email, {
      onSuccess: () => setResult({ ok: true, text: messages.resetLinkSent }),
      onError: (err) => setResult({ ok: false, text: messages.resetLinkErrorPrefix + err.message }),
    });
  }

  return (
    <AuthCard
      title={t("forgot.title")}
      description={t("forgot.description")}
      links={<Link to="/login">{t("forgot.back")}</Link>}
    >
      <AuthForm onSubmit={onSubmit} loading={asking.isPending} submitLabel={t("forgot.submit")}>
        <EmailField
          label={t("forgot.email")}
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <OutcomeAlert outcome={result} />
      </AuthForm>
    </AuthCard>
  );
}
