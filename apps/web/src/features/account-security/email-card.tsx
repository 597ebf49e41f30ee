import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { formErrors } from "../../api/form-errors.ts";
import { useSession } from "../../auth/session.tsx";
import { type Outcome, OutcomeAlert } from "../../components/alert.tsx";
import { EmailField } from "../../components/field.tsx";
import { useT } from "../../i18n/intl.tsx";
import { useChangeEmail } from "./api.ts";
import { FormCard } from "./form-card.tsx";
import { useReauth } from "./reauth.tsx";

// Changing one's email address (PATCH /api/me/email): the password (and code) is asked first
// when the last sign-in is over 10 minutes old; a code then goes to the new address, which the
// Verify page takes. The old address is told by email.
export function EmailCard() {
  const { user } = useSession();
  const { intl, t } = useT();
  const reauth = useReauth();
  const changing = useChangeEmail(reauth.run);
  const [email, setEmail] = useState("");
  const [outcome, setOutcome] = useState<Outcome & { field?: string | undefined }>();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(undefined);
    changing.mutate(email, {
      onSuccess: (answer) => {
        setEmail("");
        setOutcome({ ok: true, text: answer.message });
      },
      onError: (err) => {
        const { fields, message } = formErrors(err, ["email"]);
        setOutcome({ ok: false, text: message, field: fields.email });
      },
    });
  }

  return (
    <FormCard
      title={t("account.email.title")}
      onSubmit={onSubmit}
      saving={changing.isPending}
      after={reauth.dialog}
    >
      <p className="muted">
        {intl.formatMessage(
          { id: "account.email.current" },
          { email: user?.email ?? "", strong: (chunks) => <strong>{chunks}</strong> },
        )}
      </p>
      <EmailField
        label={t("account.email.new")}
        required
        hint={t("account.email.hint")}
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setOutcome(undefined);
        }}
        error={outcome?.field}
      />
      <OutcomeAlert outcome={outcome}>
        {" "}
        {intl.formatMessage(
          { id: "account.email.verifyNow" },
          { link: (chunks) => <Link to="/Verify">{chunks}</Link> },
        )}
      </OutcomeAlert>
    </FormCard>
  );
}
