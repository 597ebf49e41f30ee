import type { FormEvent, ReactNode } from "react";
import { Button } from "../../components/button.tsx";
import { useIntl } from "../../i18n/intl.tsx";

/** An admin screen's filter form: its fields, the button that applies them, and Clear once applied. */
export function AdminFilters({
  label,
  onSubmit,
  submitLabel,
  onClear,
  children,
}: {
  label: string;
  onSubmit: (event: FormEvent) => void;
  submitLabel: string;
  /** Given while a filter is applied. */
  onClear: (() => void) | undefined;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <form className="admin-filters" onSubmit={onSubmit} aria-label={label}>
      {children}
      <div className="admin-filters-actions">
        <Button type="submit">{submitLabel}</Button>
        {onClear ? (
          <Button variant="ghost" onClick={onClear}>
            {intl.formatMessage({ id: "admin.clear" })}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
