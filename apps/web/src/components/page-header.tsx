import { type ReactNode, useEffect } from "react";
import { useIntl } from "../i18n/intl.tsx";
import { ButtonLink } from "./button.tsx";

export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** A way on to another screen ("Back to Dashboard"), as a secondary button beside the title. */
  link?: { to: string; label: string };
}

/** The page's one h1, its lead text, and the browser tab title. */
export function PageHeader({ title, description, actions, link }: PageHeaderProps) {
  useDocumentTitle(title);
  const side = link ? (
    <ButtonLink to={link.to} variant="secondary">
      {link.label}
    </ButtonLink>
  ) : (
    actions
  );
  return (
    <header className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {side ? <div className="page-actions">{side}</div> : null}
    </header>
  );
}

/** A page of one feature: its header, title and lead text from the catalogue, and the feature. */
export function FeaturePage({
  titleId,
  descriptionId,
  children,
}: {
  titleId: string;
  descriptionId: string;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <div className="stack">
      <PageHeader
        title={intl.formatMessage({ id: titleId })}
        description={intl.formatMessage({ id: descriptionId })}
      />
      {children}
    </div>
  );
}

export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Gradecast` : "Gradecast";
  }, [title]);
}
