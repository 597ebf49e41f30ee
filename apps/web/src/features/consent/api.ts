import type { Locale } from "@gradecast/contract/locale-tags";
import { routes } from "@gradecast/contract/routes/index";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, call } from "../../api/client.ts";

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

/**
 * What the guardian's link asks, with the consent text in the page's language (asked again when
 * the language changes; the text read so far stays shown meanwhile).
 */
export function useConsentView(token: string, locale: Locale) {
  return useQuery({
    queryKey: ["consent", "view", token, locale],
    enabled: token !== "",
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      call(
        routes.consent.view.key,
        { body: { token } },
        { auth: false, signal, headers: { "accept-language": locale } },
      ),
  });
}

/** Whether the server refused a confirmation because the text read is not its current one. */
export function isTextOutdated(error: unknown): boolean {
  return error instanceof ApiError && error.code === "unknown_text_version";
}

/** Consents to the text version the guardian read; a refused version reloads the text. */
export function useConfirmConsent(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (textVersion: string) =>
      call(routes.consent.confirm.key, { body: { token, textVersion } }, { auth: false }),
    onError: (error) => {
      if (isTextOutdated(error)) void client.invalidateQueries({ queryKey: ["consent", "view"] });
    },
  });
}

export function useWithdrawConsent(token: string) {
  return useMutation({
    mutationFn: () => call(routes.consent.withdraw.key, { body: { token } }, { auth: false }),
  });
}
