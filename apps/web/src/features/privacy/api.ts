import { deletionConfirmation, type retentionPatchSchema } from "@gradecast/contract/data-rights";
import type { RetentionCategory } from "@gradecast/contract/personal-data";
import { routes } from "@gradecast/contract/routes/index";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { call } from "../../api/client.ts";

// The admin's data protection page (issue 31): retention settings, what is due, the confirmed
// purge (a background job), pending deletions and students to review.

export const dataProtectionKey = ["data-protection"] as const;

export function useDataProtection() {
  return useQuery({
    queryKey: dataProtectionKey,
    queryFn: ({ signal }) => call(routes.privacy.dataProtection.key, undefined, { signal }),
  });
}

export function useUpdateDataProtection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof retentionPatchSchema>) =>
      call(routes.privacy.updateDataProtection.key, { body }),
    onSuccess: (answer) => client.setQueryData(dataProtectionKey, answer),
  });
}

export function usePurge() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (category: RetentionCategory) =>
      call(routes.privacy.purge.key, { body: { category } }),
    onSuccess: () => client.invalidateQueries({ queryKey: dataProtectionKey }),
  });
}

export function useCancelDeletion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (uid: string) => call(routes.privacy.cancelUserDeletion.key, { params: { uid } }),
    onSuccess: () => client.invalidateQueries({ queryKey: dataProtectionKey }),
  });
}

/** An admin deletes an account on its owner's request (re-authentication: run it in reauth.run). */
export function requestDeletion(uid: string, reason: string) {
  return call(routes.privacy.deleteUser.key, {
    params: { uid },
    body: { confirm: deletionConfirmation, reason },
  });
}
