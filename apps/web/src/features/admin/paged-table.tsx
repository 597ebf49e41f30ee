import type { ReactNode } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { ScrollTable } from "../../components/scroll-table.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useT } from "../../i18n/intl.tsx";

// The admin screens' tables (users, audit log): a paged (infinite) query shown as its loading
// spinner, its error with Retry, its empty state, or a count and the table with "Load more";
// on a phone each row is a card (admin.css).

/** What a table's rows are: its words are the catalogue's for them. */
export type TableNoun = "accounts" | "entries";
const words = {
  accounts: {
    loading: "admin.table.accounts.loading",
    failed: "admin.table.accounts.failed",
    count: "admin.table.accounts.count",
    caption: "admin.table.accounts.caption",
  },
  entries: {
    loading: "admin.table.entries.loading",
    failed: "admin.table.entries.failed",
    count: "admin.table.entries.count",
    caption: "admin.table.entries.caption",
  },
} as const;

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
  noun,
  busy,
  empty,
  head,
  children,
}: {
  state: PagedQuery;
  /** Rows loaded so far. */
  count: number;
  /** What a row is: the table's words. */
  noun: TableNoun;
  /** Fetched again (new filters): the count gives way to "Loading...". */
  busy: boolean;
  empty: ReactNode;
  head: readonly string[];
  /** The rows. */
  children: ReactNode;
}) {
  const { intl, t } = useT();
  const said = words[noun];
  if (state.isPending) return <Spinner label={t(said.loading)} />;
  if (state.isError && count === 0) {
    return <ErrorState title={t(said.failed)} query={state} />;
  }
  if (count === 0) return <>{empty}</>;
  const more = state.hasNextPage ? "yes" : "no";
  const caption = t(said.caption);
  return (
    <>
      <p className="admin-status" aria-live="polite">
        {busy ? t("admin.loading") : intl.formatMessage({ id: said.count }, { count, more })}
      </p>
      <ScrollTable
        className="admin-table-wrap"
        label={caption}
        tableClassName="admin-table"
        columns={head}
        busy={busy}
      >
        {children}
      </ScrollTable>
      {state.isError ? (
        <Alert tone="error">
          {t("admin.table.nextFailed")} {state.error?.message}
        </Alert>
      ) : null}
      {state.hasNextPage ? (
        <div className="admin-more">
          <Button
            variant="secondary"
            onClick={() => state.fetchNextPage()}
            loading={state.isFetchingNextPage}
          >
            {t("admin.table.loadMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}
