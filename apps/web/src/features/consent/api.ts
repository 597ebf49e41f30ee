import { routes } from "@gradecast/contract/routes/index";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/client.ts";

// Guardian consent (issue 31): the student's own state and request, and the guardian's calls,
// which need no account (the link's token is sent in the body, never in a URL).

export const consentKey = ["consent", "mine"] as const;

/** Whether the signed-in student needs a guardian's consent, and where it stands. */
export function useMyConsent(enabled = true) {
  return useQuery({
    queryKey: consentKey,
    enabled,
    queryFn: ({ signal }) => call(routes.consent.mine.key, undefined, { signal }),
  });
}

export function useRequestConsent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (guardianEmail: string) =>
      call(routes.consent.request.key, { body: { guardianEmail } }),
    onSuccess: (status) => client.setQueryData(consentKey, status),
  });
}

/** What the guardian's link asks (read once the page has the token). */
export function useConsentView(token: string) {
  return useQuery({
    queryKey: ["consent", "view", token],
    enabled: token !== "",
    retry: false,
    queryFn: ({ signal }) =>
      call(routes.consent.view.key, { body: { token } }, { auth: false, signal }),
  });
}

export function useConfirmConsent(token: string) {
  return useMutation({
    mutationFn: () => call(routes.consent.confirm.key, { body: { token } }, { auth: false }),
  });
}

export function useWithdrawConsent(token: string) {
  return useMutation({
    mutationFn: () => call(routes.consent.withdraw.key, { body: { token } }, { auth: false }),
  });
}
