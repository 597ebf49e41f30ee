import type { OneRosterMode, OneRosterResult } from "@gradecast/contract/oneroster";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client.ts";

// OneRoster import (issue 34): the ZIP sent as it is, previewed (dryRun) or applied. Applying
// changes classes and accounts: every cached list is marked stale.
export function useOneRosterImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, mode, preview }: { file: Blob; mode: OneRosterMode; preview: boolean }) =>
      api<OneRosterResult>(
        "POST",
        `/api/admin/oneroster?dryRun=${preview}&mode=${mode}`,
        new Blob([file], { type: "application/zip" }),
      ),
    onSuccess: (_result, { preview }) => {
      if (!preview) void client.invalidateQueries({ refetchType: "none" });
    },
  });
}
