import { reauthMinutes } from "@gradecast/contract/account-security";
import { type FormEvent, type ReactNode, useCallback, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { SubmitOrCancel } from "../../components/button.tsx";
import { CodeField, PasswordField } from "../../components/field.tsx";
import { ModalDialog } from "../../components/modal-dialog.tsx";
import { useIntl, useT } from "../../i18n/intl.tsx";
import { type Confirmed, useConfirmPassword } from "./api.ts";

// Re-authentication ("sudo mode"): a call the server answers 403 reauth_required opens a dialog
// asking for the password (and the code when MFA is on), which POST /api/auth/reauth checks;
// then the call runs again. One confirmation lasts 10 minutes.

interface Pending {
  retry: () => Promise<void>;
  fail: (error: unknown) => void;
}

/** `run(action)`: the action's answer, once the password is confirmed if it had to be. */
export function useReauth(): { run: Confirmed; dialog: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);
  const intl = useIntl();
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "reauth_required")) throw err;
      return await new Promise<T>((resolve, reject) => {
        setPending({ retry: async () => resolve(await action()), fail: reject });
      });
    }
  }, []);
  const dialog = pending ? (
    <ReauthDialog
      onDone={async () => {
        const p = pending;
        setPending(null);
        try {
          await p.retry();
        } catch (err) {
          p.fail(err);
        }
      }}
      onCancel={() => {
        const p = pending;
        setPending(null);
        p.fail(
          new ApiError(
            403,
            "reauth_required",
            intl.formatMessage({ id: "account.reauth.required" }),
          ),
        );
      }}
    />
  ) : null;
  return { run, dialog };
}

function ReauthDialog({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const confirming = useConfirmPassword();
  const { intl, t } = useT();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<{ password?: string; code?: string; form?: string }>({});

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    try {
      await confirming.mutateAsync({ password, ...(code ? { code } : {}) });
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.code === "invalid_code") {
        setErrors({ code: err.message });
      } else if (err instanceof ApiError && err.code === "invalid_credentials") {
        setErrors({ password: err.fields.password ?? err.message });
      } else {
        setErrors({ form: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  const busy = confirming.isPending || confirming.isSuccess;
  return (
    <ModalDialog title={t("account.reauth.title")} onClose={onCancel}>
      <form className="form" onSubmit={confirm}>
        <p>{intl.formatMessage({ id: "account.reauth.text" }, { minutes: reauthMinutes })}</p>
        <PasswordField
          label={t("account.reauth.password")}
          data-autofocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
        <CodeField
          label={t("account.reauth.code")}
          required={false}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={errors.code}
        />
        {errors.form ? (
          <p className="form-error" role="alert">
            {errors.form}
          </p>
        ) : null}
        <SubmitOrCancel
          saving={busy}
          submitLabel={t("account.reauth.confirm")}
          cancelLabel={t("account.cancel")}
          onCancel={onCancel}
          cancelDisabled={busy}
        />
      </form>
    </ModalDialog>
  );
}
