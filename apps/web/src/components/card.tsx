import type { HTMLAttributes, ReactNode } from "react";

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, "title"> {
  title?: ReactNode;
  /** Heading level of the title (default 2). */
  level?: 2 | 3;
  actions?: ReactNode;
}

export function Card({ title, level = 2, actions, className, children, ...rest }: CardProps) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section className={["card", className].filter(Boolean).join(" ")} {...rest}>
      {title || actions ? (
        <div className="card-head">
          {title ? <Heading className="card-title">{title}</Heading> : null}
          {actions ? <div className="card-actions">{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/**
 * A card named by its heading (the section's `aria-labelledby` points at the h2), without the
 * head row `Card` puts its title and actions in.
 */
export function LabelledCard({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={["card", className].filter(Boolean).join(" ")} aria-labelledby={id}>
      <h2 id={id} className="card-title">
        {title}
      </h2>
      {children}
    </section>
  );
}
