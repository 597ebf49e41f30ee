import { QueryClient } from "@tanstack/react-query";
import { sessionEvents } from "../auth/session-events.ts";
import { ApiError } from "./client.ts";

// The one TanStack Query client. It is loaded with the signed-in pages (components/query-shell),
// not with /login, to keep the first screen small. Cached answers belong to one user: they are
// dropped whenever who is signed in changes.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Retry only what may pass on a second try: not a refusal or a bad request.
      retry: (count, error) =>
        count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
    mutations: { retry: false },
  },
});

sessionEvents.addEventListener("change", () => queryClient.clear());
