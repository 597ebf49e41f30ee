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
