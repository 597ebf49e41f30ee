import type { ReactNode } from "react";
import { Button } from "./button.tsx";

export interface ErrorStateProps {
  title?: string;
  /** The error or its message; an ApiError's message is already meant for people. */
  error?: unknown;
  children?: ReactNode;
  onRetry?: () => void;
  retrying?: boolean;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "string" && error) return error;
  return "Something went wrong on our side. Please try again.";
}

export function ErrorState({
  title = "This could not be loaded.",
  error,
  children,
  onRetry,
  retrying,
}: ErrorStateProps) {
  return (
    <div className="error-state" role="alert">
      <p className="error-state-title">{title}</p>
      <p>{children ?? errorMessage(error)}</p>
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry} loading={retrying}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}
