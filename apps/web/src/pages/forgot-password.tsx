import { messages } from "@gradecast/contract/messages";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { OutcomeAlert } from "../components/alert.tsx";
import { AuthCard } from "../components/auth-card.tsx";
import { Button } from "../components/button.tsx";
import { EmailField } from "../components/field.tsx";
import { useForgotPassword } from "../features/sign-up/api.ts";

export default function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const asking = useForgotPassword();

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
      title="Forgot Password"
      description="Enter the email address of your account and we will email you a link to choose a new password."
      links={<Link to="/login">Back to Login</Link>}
    >
      <form className="form" onSubmit={onSubmit}>
        <EmailField
          label="Email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <OutcomeAlert outcome={result} />
        <Button type="submit" loading={asking.isPending} className="btn-block">
          Send reset link
        </Button>
      </form>
    </AuthCard>
  );
}
