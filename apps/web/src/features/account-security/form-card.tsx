import type { FormEvent, ReactNode } from "react";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";

/**
 * A settings card holding one form: its title names the card, the form and the submit button.
 * `after` goes below the form, inside the card (a re-authentication dialog).
 */
export function FormCard({
  title,
  onSubmit,
  saving,
  after,
  children,
}: {
  title: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  saving: boolean;
  after?: ReactNode;
  /** The fields and the outcome. */
  children: ReactNode;
}) {
  return (
    <Card title={title}>
      <form className="form" onSubmit={onSubmit} aria-label={title}>
        {children}
        <Button type="submit" loading={saving}>
          {title}
        </Button>
      </form>
      {after}
    </Card>
  );
}
