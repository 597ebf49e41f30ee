import { passwordLimits } from "@gradecast/contract/password-limits";
import { type ChangeEvent, type FormEvent, useEffect, useState } from "react";
import { ApiError } from "../api/client.ts";
import { formErrors } from "../api/form-errors.ts";
import { useSession } from "../auth/session.tsx";
import { Alert, type Outcome as AlertOutcome, OutcomeAlert } from "../components/alert.tsx";
import { Field, PasswordField } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import {
  useChangePassword,
  useMfaStatus,
  useUpdateName,
} from "../features/account-security/api.ts";
import { EmailCard } from "../features/account-security/email-card.tsx";
import { FormCard } from "../features/account-security/form-card.tsx";
import { MfaCard } from "../features/account-security/mfa-card.tsx";
import { useReauth } from "../features/account-security/reauth.tsx";
import { SessionsCard } from "../features/account-security/sessions-card.tsx";
import { YourDataCard } from "../features/privacy/your-data-card.tsx";
import { useT } from "../i18n/intl.tsx";

/** With the messages that go beside the fields. */
type Outcome = AlertOutcome & { fields?: Partial<Record<string, string>> };

function failure(err: unknown, fieldNames: readonly string[], noUser: string): Outcome {
  if (err instanceof ApiError && err.status === 401 && err.code !== "invalid_credentials") {
    return { ok: false, text: noUser };
  }
  const { fields, message } = formErrors(err, fieldNames);
  return { ok: false, text: message, fields };
}

/**
 * A field's change handler: it keeps the value and clears the other form's outcome, so only the
 * form being used shows one.
 */
const typing =
  (set: (value: string) => void, clearOther: (outcome: null) => void) =>
  (e: ChangeEvent<HTMLInputElement>) => {
    set(e.target.value);
    clearOther(null);
  };

/**
 * An admin without two-step login is sent here by every other call (issue 28): say why at the
 * top, with the card to turn it on right under it, and put the keyboard on its first button.
 */
function useMfaRequired(signedIn: boolean): boolean {
  const status = useMfaStatus(signedIn);
  const required = Boolean(status.data?.required && !status.data.enabled);
  useEffect(() => {
    if (!required) return;
    const card = document.getElementById("mfa");
    card?.scrollIntoView({ block: "nearest" });
    card?.querySelector<HTMLButtonElement>("button")?.focus();
  }, [required]);
  return required;
}

export default function Settings() {
  const { user } = useSession();
  const { intl, t } = useT();
  const noUser = t("messages.noUserLoggedIn");
  const [name, setName] = useState(user?.name ?? "");
  const [nameOutcome, setNameOutcome] = useState<Outcome | null>(null);
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [passwordOutcome, setPasswordOutcome] = useState<Outcome | null>(null);
  const reauth = useReauth();
  const savingName = useUpdateName();
  const savingPassword = useChangePassword(reauth.run);
  const mfaRequired = useMfaRequired(Boolean(user));
  // The card stays where it was once shown first: moving it would unmount it and lose the
  // recovery codes it shows once, right after it is turned on.
  const [mfaFirst, setMfaFirst] = useState(false);
  if (mfaRequired && !mfaFirst) setMfaFirst(true);

  // A message is about the last action: starting another, in either form, clears it. False,
  // with the form's message saying so, when nobody is signed in.
  function start(event: FormEvent<HTMLFormElement>, setOutcome: (outcome: Outcome) => void) {
    event.preventDefault();
    setNameOutcome(null);
    setPasswordOutcome(null);
    if (!user) setOutcome({ ok: false, text: noUser });
    return Boolean(user);
  }

  function onName(event: FormEvent<HTMLFormElement>) {
    if (!start(event, setNameOutcome)) return;
    savingName.mutate(name, {
      onSuccess: (updated) => {
        setName(updated.name);
        setNameOutcome({ ok: true, text: t("messages.nameUpdated") });
      },
      onError: (err) => setNameOutcome(failure(err, ["name"], noUser)),
    });
  }

  function onPassword(event: FormEvent<HTMLFormElement>) {
    if (!start(event, setPasswordOutcome)) return;
    savingPassword.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword("");
          setNewPassword("");
          setPasswordOutcome({ ok: true, text: t("messages.passwordUpdated") });
        },
        onError: (err) =>
          setPasswordOutcome(failure(err, ["currentPassword", "newPassword"], noUser)),
      },
    );
  }

  return (
    <div className="stack narrow">
      <PageHeader
        title={t("account.settings.title")}
        description={t("account.settings.description")}
      />
      {!user ? (
        <Alert tone="error">
          <p>{noUser}</p>
        </Alert>
      ) : null}
      {user && mfaRequired ? (
        <Alert tone="warning" title={t("account.settings.mfaFirst")} id="mfa-required">
          <p>{t("account.settings.mfaRequiredNotice")}</p>
        </Alert>
      ) : null}
      {user && mfaFirst ? <MfaCard /> : null}
      <FormCard
        title={t("account.settings.updateName")}
        onSubmit={onName}
        saving={savingName.isPending}
      >
        <Field
          label={t("account.settings.newName")}
          name="name"
          autoComplete="name"
          required
          maxLength={100}
          value={name}
          onChange={typing(setName, setPasswordOutcome)}
          error={nameOutcome?.fields?.name}
        />
        <OutcomeAlert outcome={nameOutcome} />
      </FormCard>
      <FormCard
        title={t("account.settings.changePassword")}
        onSubmit={onPassword}
        saving={savingPassword.isPending}
        after={reauth.dialog}
      >
        <PasswordField
          label={t("account.settings.currentPassword")}
          name="currentPassword"
          value={currentPassword}
          onChange={typing(setCurrentPassword, setNameOutcome)}
          error={passwordOutcome?.fields?.currentPassword}
        />
        <PasswordField
          label={t("account.settings.newPassword")}
          name="newPassword"
          fresh
          hint={intl.formatMessage(
            { id: "account.settings.newPasswordHint" },
            { min: passwordLimits.min },
          )}
          value={newPassword}
          onChange={typing(setNewPassword, setNameOutcome)}
          error={passwordOutcome?.fields?.newPassword}
        />
        <OutcomeAlert outcome={passwordOutcome} />
      </FormCard>
      {user ? <EmailCard /> : null}
      {user && !mfaFirst ? <MfaCard /> : null}
      {user ? <SessionsCard /> : null}
      {user ? <YourDataCard /> : null}
    </div>
  );
}
