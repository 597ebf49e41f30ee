import type { ReactNode } from "react";

export type AlertTone = "info" | "success" | "warning" | "error";

export interface AlertProps {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  id?: string;
}

/**
 * A notice. Errors are announced at once (role="alert"); the others politely (role="status").
 * Render it always and pass empty children to keep a live region ready, or only when needed.
 */
export function Alert({ tone = "info", title, children, className, id }: AlertProps) {
  return (
    <div
      id={id}
      className={["alert", `alert-${tone}`, className].filter(Boolean).join(" ")}
      role={tone === "error" ? "alert" : "status"}
    >
      {title ? <p className="alert-title">{title}</p> : null}
      {children}
    </div>
  );
}

/** What the last action came to: done, or refused with the reason. */
export interface Outcome {
  ok: boolean;
  /** Null when there is nothing to say here (every error is shown beside its field). */
  text: string | null;
}

/** The outcome of the last action as an alert, or nothing while there is none. */
export function OutcomeAlert({
  outcome,
  okTone = "success",
  id,
  children,
}: {
  outcome: Outcome | null | undefined;
  okTone?: AlertTone;
  id?: string;
  /** Said after the text when the action was done. */
  children?: ReactNode;
}) {
  if (!outcome?.text) return null;
  return (
    <Alert tone={outcome.ok ? okTone : "error"} id={id}>
      <p>
        {outcome.text}
        {outcome.ok ? children : null}
      </p>
    </Alert>
  );
}

/** What went wrong, as an error alert, or nothing while nothing has. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert tone="error">
      <p>{message}</p>
    </Alert>
  );
}
