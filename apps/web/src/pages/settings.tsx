import { passwordLimits, type User } from "@gradecast/contract/auth";
import { messages } from "@gradecast/contract/messages";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ApiError, api } from "../api/client.ts";
import { formErrors } from "../api/form-errors.ts";
import { meKey } from "../api/me.ts";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";

interface Outcome {
  ok: boolean;
  /** The form-level message; null when every error is shown beside its field. */
  text: string | null;
  fields?: Partial<Record<string, string>>;
}

function failure(err: unknown, fieldNames: readonly string[]): Outcome {
  if (err instanceof ApiError && err.status === 401 && err.code !== "invalid_credentials") {
    return { ok: false, text: messages.noUserLoggedIn };
  }
  const { fields, message } = formErrors(err, fieldNames);
  return { ok: false, text: message, fields };
}

export default function Settings() {
  const { user, setUser } = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState(user?.name ?? "");
  const [nameOutcome, setNameOutcome] = useState<Outcome | null>(null);
  const [savingName, setSavingName] = useState(false);
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [passwordOutcome, setPasswordOutcome] = useState<Outcome | null>(null);
  const [savingPassword, setSavingPassword] = useState(false);

  // A message is about the last action: starting another, in either form, clears it.
  async function onName(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNameOutcome(null);
    setPasswordOutcome(null);
    if (!user) {
      setNameOutcome({ ok: false, text: messages.noUserLoggedIn });
      return;
    }
    setSavingName(true);
    try {
      const updated = await api<User>("PATCH", "/api/me", { name });
      setUser(updated);
      queryClient.setQueryData(meKey, updated);
      setName(updated.name);
      setNameOutcome({ ok: true, text: messages.nameUpdated });
    } catch (err) {
      setNameOutcome(failure(err, ["name"]));
    } finally {
      setSavingName(false);
    }
  }

  async function onPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPasswordOutcome(null);
    setNameOutcome(null);
    if (!user) {
      setPasswordOutcome({ ok: false, text: messages.noUserLoggedIn });
      return;
    }
    setSavingPassword(true);
    try {
      await api<void>("POST", "/api/me/password", { currentPassword, newPassword });
      setCurrentPassword("");
      setNewPassword("");
      setPasswordOutcome({ ok: true, text: messages.passwordUpdated });
    } catch (err) {
      setPasswordOutcome(failure(err, ["currentPassword", "newPassword"]));
    } finally {
      setSavingPassword(false);
    }
  }

  return (
    <div className="stack narrow">
      <PageHeader title="Settings" description="Change the name others see and your password." />
      {!user ? (
        <Alert tone="error">
          <p>{messages.noUserLoggedIn}</p>
        </Alert>
      ) : null}
      <Card title="Update name">
        <form className="form" onSubmit={onName} aria-label="Update name">
          <Field
            label="New name"
            name="name"
            autoComplete="name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setPasswordOutcome(null);
            }}
            error={nameOutcome?.fields?.name}
          />
          {nameOutcome?.text ? (
            <Alert tone={nameOutcome.ok ? "success" : "error"}>
              <p>{nameOutcome.text}</p>
            </Alert>
          ) : null}
          <Button type="submit" loading={savingName}>
            Update name
          </Button>
        </form>
      </Card>
      <Card title="Change password">
        <form className="form" onSubmit={onPassword} aria-label="Change password">
          <Field
            label="Current password"
            type="password"
            name="currentPassword"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(e) => {
              setCurrentPassword(e.target.value);
              setNameOutcome(null);
            }}
            error={passwordOutcome?.fields?.currentPassword}
          />
          <Field
            label="New password"
            type="password"
            name="newPassword"
            autoComplete="new-password"
            required
            minLength={passwordLimits.min}
            maxLength={passwordLimits.max}
            hint={`At least ${passwordLimits.min} characters. Other devices are signed out.`}
            value={newPassword}
            onChange={(e) => {
              setNewPassword(e.target.value);
              setNameOutcome(null);
            }}
            error={passwordOutcome?.fields?.newPassword}
          />
          {passwordOutcome?.text ? (
            <Alert tone={passwordOutcome.ok ? "success" : "error"}>
              <p>{passwordOutcome.text}</p>
            </Alert>
          ) : null}
          <Button type="submit" loading={savingPassword}>
            Change password
          </Button>
        </form>
      </Card>
    </div>
  );
}
