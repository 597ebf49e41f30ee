import type { User } from "@gradecast/contract/auth";
import { useQuery } from "@tanstack/react-query";
import { api } from "./client.ts";

export const meKey = ["me"] as const;

export function fetchMe(signal?: AbortSignal): Promise<User> {
  return api<User>("GET", "/api/me", undefined, signal ? { signal } : {});
}

/** The signed-in user's record, fetched from the server (GET /api/me). */
export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: ({ signal }) => fetchMe(signal) });
}
