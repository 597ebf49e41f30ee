import { passwordLimits } from "@gradecast/contract/password-limits";
import {
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
  useId,
} from "react";

// A labelled control with its hint and its error next to it: the one frame of every form field
// (input, select, textarea, the report form's student picker), so that the label, the hint, the
// error and the ids tying them to the control are written once.

/** What the frame gives its control: the id the label points to, and the invalid state. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

export interface FrameProps {
  label: ReactNode;
  /** Shown under the control, tied to it with aria-describedby. */
  error?: string | undefined;
  hint?: ReactNode;
  id?: string | undefined;
  /** On the frame (the field's box), not on the control. */
  className?: string | undefined;
}

export function FieldFrame({
  label,
  error,
  hint,
  id,
  className,
  children,
}: FrameProps & { children: (control: ControlProps) => ReactNode }) {
  const autoId = useId();
  const controlId = id ?? `f${autoId}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  return (
    <div className={["field", error ? "field-invalid" : "", className].filter(Boolean).join(" ")}>
      <label className="field-label" htmlFor={controlId}>
        {label}
      </label>
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {children({
        id: controlId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
      })}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** A field's error under it, when there is one. */
export function FieldError({ id, error }: { id: string | undefined; error: string | undefined }) {
  return error ? (
    <p className="field-error" id={id}>
      {error}
    </p>
  ) : null;
}

/**
 * A labelled control: `render` draws the control given the frame's id and state and the rest of
 * the props (the control's own attributes).
 */
export function framed<P>(render: (control: ControlProps, props: P) => ReactNode) {
  return function Framed({ label, error, hint, id, className, ...rest }: FrameProps & P) {
    return (
      <FieldFrame label={label} error={error} hint={hint} id={id} className={className}>
        {(control) => render(control, rest as P)}
      </FieldFrame>
    );
  };
}

export type FieldProps = FrameProps & Omit<InputHTMLAttributes<HTMLInputElement>, "id">;

/** A labelled input. */
export const Field = framed<Omit<InputHTMLAttributes<HTMLInputElement>, "id">>((control, input) => (
  <input className="input" {...control} {...input} />
));

/** A labelled textarea. */
export const TextArea = framed<Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id">>(
  (control, input) => <textarea className="input" {...control} {...input} />,
);

/** An email address, as every form asks for one (the browser fills it in and checks it). */
export function EmailField(props: FieldProps) {
  return <Field type="email" name="email" autoComplete="email" maxLength={254} {...props} />;
}

/**
 * A password: the account's own (the browser fills it in), or a new one (`fresh`: the browser
 * may suggest one; the contract's length limits).
 */
export function PasswordField({ fresh, ...props }: FieldProps & { fresh?: boolean }) {
  const limits = fresh ? { minLength: passwordLimits.min, maxLength: passwordLimits.max } : {};
  return (
    <Field
      type="password"
      name="password"
      autoComplete={fresh ? "new-password" : "current-password"}
      required
      {...limits}
      {...props}
    />
  );
}

/**
 * A one-time code: `digits` long (an emailed or authenticator code), or up to 40 characters
 * where a recovery code is taken too. The browser may fill it in from a message.
 */
export function CodeField({ digits, ...props }: FieldProps & { digits?: number }) {
  const shape = digits
    ? { inputMode: "numeric" as const, pattern: `[0-9]{${digits}}`, maxLength: digits }
    : { inputMode: "text" as const, maxLength: 40 };
  return <Field name="code" autoComplete="one-time-code" required {...shape} {...props} />;
}
