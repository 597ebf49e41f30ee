import type { SetupState, SiteInfo } from "@gradecast/contract/site";
import { useCallback, useEffect, useState } from "react";
import { api } from "./client.ts";

export type SiteState =
  | { status: "loading" }
  | { status: "error"; error: unknown }
  | { status: "ready"; info: SiteInfo };

/**
 * What the public pages show about this installation (GET /api/site). The public pages load
 * without TanStack Query (it comes with the signed-in pages), so this one call keeps its own
 * state; `retry` asks again after a failure.
 */
export function useSiteInfo(): { state: SiteState; retry: () => void } {
  const [state, setState] = useState<SiteState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    // `attempt` is read so that Retry runs this effect again.
    void attempt;
    const controller = new AbortController();
    setState({ status: "loading" });
    api<SiteInfo>("GET", "/api/site", undefined, { auth: false, signal: controller.signal }).then(
      (info) => setState({ status: "ready", info }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: "error", error });
      },
    );
    return () => controller.abort();
  }, [attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}

/**
 * Whether the installation has an admin yet and how teacher sign-ups are handled (GET
 * /api/setup). Null while loading or when the call failed: the pages then say nothing more.
 */
export function useSetupState(): SetupState | null {
  const [state, setState] = useState<SetupState | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api<SetupState>("GET", "/api/setup", undefined, {
      auth: false,
      signal: controller.signal,
    }).then(setState, () => {});
    return () => controller.abort();
  }, []);
  return state;
}
