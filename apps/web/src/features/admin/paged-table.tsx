import type { ReactNode } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { ScrollRegion } from "../../components/scroll-region.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { TableHead } from "../../components/table-head.tsx";

// The admin screens' tables (users, audit log): a paged (infinite) query shown as its loading
// spinner, its error with Retry, its empty state, or a count and the table with "Load more";
// on a phone each row is a card (admin.css).

/** What the table reads of an infinite query. */
export interface PagedQuery {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  refetch: () => unknown;
  fetchNextPage: () => unknown;
}

export function PagedTable({
  state,
  count,
  nouns: [one, many],
  busy,
  empty,
  head,
  children,
}: {
  state: PagedQuery;
  /** Rows loaded so far. */
  count: number;
  /** What a row is, one and several ("account", "accounts"): the table's words are made of them. */
  nouns: readonly [string, string];
  /** Fetched again (new filters): the count gives way to "Loading...". */
  busy: boolean;
  empty: ReactNode;
  head: readonly string[];
  /** The rows. */
  children: ReactNode;
}) {
  if (state.isPending) return <Spinner label={`Loading ${many}...`} />;
  if (state.isError && count === 0) {
    return <ErrorState title={`The ${many} could not be loaded.`} query={state} />;
  }
  if (count === 0) return <>{empty}</>;
  const more = state.hasNextPage ? "+" : "";
  const caption = `${many.charAt(0).toUpperCase()}${many.slice(1)}, newest first`;
  return (
    <>
      <p className="admin-status" aria-live="polite">
        {busy ? "Loading..." : `${count}${more} ${count === 1 && !more ? one : many}, newest first`}
      </p>
      <ScrollRegion className="admin-table-wrap" label={caption}>
        <table className="admin-table" aria-busy={busy || undefined}>
          <TableHead caption={caption} columns={head} />
          <tbody>{children}</tbody>
        </table>
      </ScrollRegion>
      {state.isError ? (
        <Alert tone="error">The next page could not be loaded. {state.error?.message}</Alert>
      ) : null}
      {state.hasNextPage ? (
        <div className="admin-more">
          <Button
            variant="secondary"
            onClick={() => state.fetchNextPage()}
            loading={state.isFetchingNextPage}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}
