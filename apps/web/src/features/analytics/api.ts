import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/client.ts";

// The analytics calls: the frame's address for the signed-in user (a new short-lived token on
// each visit), and the report's data, whose only credential is the embed token in the address.

/** `classId`: a staff member's report of that class only (the token carries it). */
export function useEmbed(classId = "") {
  return useQuery({
    queryKey: ["analytics", "embed", classId],
    queryFn: ({ signal }) =>
      call("GET /api/analytics/embed", { query: classId ? { classId } : {} }, { signal }),
    // Each visit gets a fresh token; a cached one could be close to expiry.
    staleTime: 0,
    gcTime: 0,
    retry: 1,
  });
}

export function useReport(token: string | null) {
  return useQuery({
    queryKey: ["analytics", "report", token],
    enabled: token !== null,
    queryFn: ({ signal }) =>
      call("GET /api/analytics/report", { query: { token: token ?? "" } }, { signal, auth: false }),
    // The token dies after 10 minutes: load once and keep what was drawn.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnReconnect: false,
  });
}
