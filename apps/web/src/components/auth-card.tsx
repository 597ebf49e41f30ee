import type { FormEvent, ReactNode } from "react";
import { Button } from "./button.tsx";
import { PageHeader } from "./page-header.tsx";

/** The sign-in screens' card (login, sign-up, password reset): a title, the form, links under it. */
export function AuthCard({
  title,
  description,
  links,
  children,
}: {
  title: string;
  description?: string;
  links?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeader title={title} description={description} />
        {children}
        {links ? <div className="auth-links">{links}</div> : null}
      </div>
    </div>
  );
}

/** A sign-in screen's form: its fields (`children`), then the one submit button, as wide as the card. */
export function AuthForm({
  onSubmit,
  loading,
  submitLabel,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  loading: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <form className="form" onSubmit={onSubmit}>
      {children}
      <Button type="submit" loading={loading} className="btn-block">
        {submitLabel}
      </Button>
    </form>
  );
}
