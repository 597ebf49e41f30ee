import type { FormEvent, ReactNode } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button, type ButtonVariant, SubmitOrCancel } from "../../components/button.tsx";

// The class pages' forms (create a class, edit it, add a teacher; a note on a student at risk,
// an intervention plan): the fields, the buttons, and the refusal under the form.

interface FormProps {
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  submitLabel: string;
  /** Why the last submit was refused, if it was and no field shows it. */
  message?: string | null;
  children: ReactNode;
}

export function ClassForm({
  onSubmit,
  busy,
  submitLabel,
  variant = "secondary",
  message,
  children,
}: FormProps & {
  /** The submit button's look: secondary unless the form is its page's main action. */
  variant?: ButtonVariant;
}) {
  return (
    <FormWithRefusal
      onSubmit={onSubmit}
      message={message}
      actions={
        <div className="actions">
          <Button type="submit" variant={variant} loading={busy}>
            {submitLabel}
          </Button>
        </div>
      }
    >
      {children}
    </FormWithRefusal>
  );
}

/** A form opened beside a list, with a way out: submit shows the request running, cancel closes. */
export function CancellableClassForm({
  onSubmit,
  busy,
  submitLabel,
  cancelLabel,
  onCancel,
  message,
  children,
}: FormProps & { cancelLabel: string; onCancel: () => void }) {
  return (
    <FormWithRefusal
      onSubmit={onSubmit}
      message={message}
      actions={
        <SubmitOrCancel
          saving={busy}
          submitLabel={submitLabel}
          cancelLabel={cancelLabel}
          onCancel={onCancel}
        />
      }
    >
      {children}
    </FormWithRefusal>
  );
}

function FormWithRefusal({
  onSubmit,
  message,
  actions,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  message?: string | null;
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <form className="class-form" onSubmit={onSubmit} noValidate>
        {children}
        {actions}
      </form>
      {message ? <Alert tone="error">{message}</Alert> : null}
    </>
  );
}
