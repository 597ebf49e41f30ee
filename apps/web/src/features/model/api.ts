import { routes } from "@gradecast/contract/routes/index";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, downloadFile, routeUrl } from "../../api/client.ts";

// The admin screen "Model" (issue 30): the state, training (a job followed by its progress),
// promotion and rollback (each may ask to confirm the password first), the outcomes export.

export const modelKey = ["admin", "model"] as const;

export function useModelState() {
  return useQuery({
    queryKey: modelKey,
    queryFn: ({ signal }) => call(routes.model.state.key, undefined, { signal }),
    retry: 1,
    // while a training runs its progress moves: read again every two seconds
    refetchInterval: (q) => (q.state.data?.training ? 2000 : false),
  });
}

export function useTrain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(routes.model.train.key),
    onSettled: () => client.invalidateQueries({ queryKey: modelKey }),
  });
}

export function useSwitchVersion(how: "promote" | "rollback") {
  const client = useQueryClient();
  const route = how === "promote" ? routes.model.promote.key : routes.model.rollback.key;
  return useMutation({
    mutationFn: (version: string) => call(route, { body: { version } }),
    onSettled: () => client.invalidateQueries({ queryKey: modelKey }),
  });
}

export function downloadOutcomes() {
  return downloadFile(routeUrl(routes.model.outcomes.key), "outcomes.csv");
}
