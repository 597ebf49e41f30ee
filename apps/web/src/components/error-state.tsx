import type { ReactNode } from "react";
import { ApiError } from "../api/client.ts";
import { useT } from "../i18n/intl.tsx";
import { Button, ButtonLink } from "./button.tsx";

/** What a failed query gives its error state: the error, and Retry (busy while it refetches). */
export interface FailedQuery {
  error: unknown;
  refetch: () => unknown;
  isFetching: boolean;
}

export interface ErrorStateProps {
  title?: string;
  /** The error or its message; an ApiError's message is already meant for people. */
  error?: unknown;
  children?: ReactNode;
  onRetry?: () => void;
  retrying?: boolean;
  /** A failed query: its error, and Retry fetches it again. */
  query?: FailedQuery;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string" && error) return error;
  return "Something went wrong on our side. Please try again.";
}

export function ErrorState({
  title,
  query,
  error = query?.error,
  children,
  onRetry = query ? () => void query.refetch() : undefined,
  retrying = query?.isFetching,
}: ErrorStateProps) {
  // Retrying cannot mend an unverified address: the way on is the code from the email.
  const unverified = error instanceof ApiError && error.code === "email_not_verified";
  const { t } = useT();
  return (
    <div className="error-state" role="alert">
      <p className="error-state-title">{title ?? t("common.loadFailed")}</p>
      <p>{children ?? errorMessage(error)}</p>
      {unverified ? (
        <ButtonLink to="/Verify">{t("common.verifyEmail")}</ButtonLink>
      ) : onRetry ? (
        <Button variant="secondary" onClick={onRetry} loading={retrying}>
          {t("common.retry")}
        </Button>
      ) : null}
    </div>
  );
}
