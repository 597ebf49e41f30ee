import { type ReactNode, useState } from "react";
import { useIntl } from "../i18n/intl.tsx";
import { Alert } from "./alert.tsx";
import { Button, type ButtonVariant } from "./button.tsx";
import { errorMessage } from "./error-state.tsx";
import { ModalDialog } from "./modal-dialog.tsx";

// A confirmation before an action (on an account, a class, a report): focus starts on Cancel,
// the action's error is shown inside the dialog, the button is busy while it runs.

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  variant = "primary",
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  variant?: ButtonVariant;
  /** Runs the action; a thrown error is shown in the dialog, which stays open. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
    } catch (error) {
      setFailure(errorMessage(error));
      setBusy(false);
    }
  }

  const intl = useIntl();
  return (
    <ModalDialog title={title} onClose={onClose}>
      {children}
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <div className="actions">
        <Button variant={variant} onClick={confirm} loading={busy}>
          {confirmLabel}
        </Button>
        <Button variant="ghost" onClick={onClose} data-autofocus disabled={busy}>
          {intl.formatMessage({ id: "common.cancel" })}
        </Button>
      </div>
    </ModalDialog>
  );
}
