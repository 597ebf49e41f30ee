import type { User } from "@gradecast/contract/auth";
import type { ReactNode } from "react";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useFreshUser } from "./session.tsx";

/**
 * A page about the signed-in account (dashboard, profile): its header, then the account as the
 * server has it now, with a spinner until it is there.
 */
export function AccountPage({
  title,
  className = "stack",
  loading,
  children,
}: {
  title: string;
  className?: string;
  /** The spinner's label while the account loads. */
  loading: string;
  children: (user: User) => ReactNode;
}) {
  const user = useFreshUser();
  return (
    <div className={className}>
      <PageHeader title={title} />
      {user ? children(user) : <Spinner label={loading} />}
    </div>
  );
}
