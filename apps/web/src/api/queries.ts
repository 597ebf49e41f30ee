import { keepPreviousData, type QueryKey, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "./client.ts";

// Reads through TanStack Query: a GET as a query's key and function, and a list the server
// pages with a cursor as an infinite query.

/** A GET's query options: the key it is cached under and the path it reads. */
export function getQuery<T>(queryKey: QueryKey, path: string) {
  return {
    queryKey,
    queryFn: ({ signal }: { signal: AbortSignal }) => api<T>("GET", path, undefined, { signal }),
  };
}

/** A page of a list: its items and the cursor of the next page (null on the last). */
export interface CursorPage {
  nextCursor: string | null;
}

/**
 * A list the server pages with a cursor, `limit` items a page, filtered by `params`. A change of
 * filters keeps the list on screen until the new one arrives.
 */
export function usePagedList<P extends CursorPage>(
  queryKey: QueryKey,
  path: string,
  params: URLSearchParams,
  limit: number,
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => {
      const page = new URLSearchParams(params);
      page.set("limit", String(limit));
      if (pageParam) page.set("cursor", pageParam);
      return api<P>("GET", `${path}?${page}`, undefined, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    retry: 1,
  });
}
