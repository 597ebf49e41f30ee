import { type ReactNode, useId, useRef, useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button, type ButtonVariant } from "../../components/button.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { useModalDialog } from "../../components/use-modal-dialog.ts";

// A confirmation before an action on an account: native <dialog> (focus starts on Cancel,
// Escape closes, focus returns), the action's error shown inside it, the button busy while it runs.

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
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `confirm-title${useId()}`;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useModalDialog(ref);

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

  return (
    <dialog ref={ref} className="admin-dialog" aria-labelledby={titleId} onClose={onClose}>
      <div className="admin-dialog-body">
        <h2 className="admin-dialog-title" id={titleId}>
          {title}
        </h2>
        {children}
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <div className="actions">
          <Button variant={variant} onClick={confirm} loading={busy}>
            {confirmLabel}
          </Button>
          <Button variant="ghost" onClick={onClose} data-autofocus disabled={busy}>
            Cancel
          </Button>
        </div>
      </div>
    </dialog>
  );
}
