import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { Link, type LinkProps } from "react-router";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Ignores presses and says why while a request runs (focus stays on the button). */
  loading?: boolean;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

export function buttonClass(variant: ButtonVariant = "primary", extra?: string): string {
  return ["btn", `btn-${variant}`, extra].filter(Boolean).join(" ");
}

export function Button({
  variant = "primary",
  loading = false,
  type = "button",
  className,
  disabled,
  onClick,
  children,
  ...rest
}: ButtonProps) {
  const inert = Boolean(disabled || loading);
  return (
    <button
      type={type}
      className={buttonClass(variant, className)}
      // Not the disabled attribute: it blurs the focused button, and keyboard focus would drop
      // to <body> whenever a request starts. Presses are ignored instead (preventDefault also
      // stops a submit button's form, and Enter in a field, which clicks it).
      aria-disabled={inert || undefined}
      aria-busy={loading || undefined}
      onClick={(event) => {
        if (inert) event.preventDefault();
        else onClick?.(event);
      }}
      {...rest}
    >
      {loading ? <span className="spinner spinner-inline" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({
  variant = "primary",
  className,
  ...rest
}: LinkProps & { variant?: ButtonVariant }) {
  return <Link className={buttonClass(variant, className)} {...rest} />;
}

/** A form's actions: its submit button and, beside it, a way out (Cancel). */
export function SubmitOrCancel({
  saving,
  submitLabel,
  cancelLabel,
  onCancel,
  cancelDisabled,
}: {
  saving: boolean;
  submitLabel: ReactNode;
  cancelLabel: ReactNode;
  onCancel: () => void;
  /** The way out waits for the request too. */
  cancelDisabled?: boolean;
}) {
  return (
    <div className="actions">
      <Button type="submit" loading={saving}>
        {submitLabel}
      </Button>
      <Button type="button" variant="ghost" onClick={onCancel} disabled={cancelDisabled}>
        {cancelLabel}
      </Button>
    </div>
  );
}
