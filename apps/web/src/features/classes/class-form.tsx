import type { FormEvent, ReactNode } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button, type ButtonVariant } from "../../components/button.tsx";

// The class pages' forms (create a class, edit it, add a teacher): the fields, one submit
// button that shows the request running, and the refusal under the form.

export function ClassForm({
  onSubmit,
  busy,
  submitLabel,
  variant = "secondary",
  message,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  submitLabel: string;
  /** The submit button's look: secondary unless the form is its page's main action. */
  variant?: ButtonVariant;
  /** Why the last submit was refused, if it was. */
  message: string | null;
  children: ReactNode;
}) {
  return (
    <>
      <form className="class-form" onSubmit={onSubmit} noValidate>
        {children}
        <div className="actions">
          <Button type="submit" variant={variant} loading={busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
      {message ? <Alert tone="error">{message}</Alert> : null}
    </>
  );
}
