import { type ReactNode, type SelectHTMLAttributes, useId } from "react";

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  options: readonly SelectOption[];
  /** A first, empty choice (e.g. "Select…"), for selects that must be chosen on purpose. */
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled select with its hint and its error next to it. */
export function Select({
  label,
  options,
  placeholder,
  error,
  hint,
  id,
  className,
  ...select
}: SelectProps) {
  const autoId = useId();
  const selectId = id ?? `s${autoId}`;
  const hintId = hint ? `${selectId}-hint` : undefined;
  const errorId = error ? `${selectId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={["field", error ? "field-invalid" : "", className].filter(Boolean).join(" ")}>
      <label className="field-label" htmlFor={selectId}>
        {label}
      </label>
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <select
        id={selectId}
        className="input select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
