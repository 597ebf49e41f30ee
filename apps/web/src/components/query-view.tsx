import type { ReactNode } from "react";
import { ErrorState, type FailedQuery } from "./error-state.tsx";
import { Spinner } from "./spinner.tsx";

/** A query's three states: a spinner saying what loads, its error with Retry, or its data. */
export function QueryView<T>({
  query,
  loading,
  failed,
  children,
}: {
  query: FailedQuery & { isPending: boolean; isError: boolean; data: T | undefined };
  loading: string;
  /** The error's title; the error state's own by default. */
  failed?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.isError || query.data === undefined) return <ErrorState title={failed} query={query} />;
  return children(query.data);
}
