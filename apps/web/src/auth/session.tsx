import type { MfaChallenge } from "@gradecast/contract/account-security";
import type { Session, User } from "@gradecast/contract/auth";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { ApiError, api, getToken, sessionEndedEvent, setToken, tokenKey } from "../api/client.ts";
import { forgetDrafts } from "../api/device-draft.ts";
import { announceSessionChange } from "./session-events.ts";
import { tokenSubject } from "./token-subject.ts";

/** Set when a sign-in cancelled a pending account deletion (read once by the app's frame). */
export const deletionCancelledKey = "gradecast:deletion-cancelled";

// Who is signed in. The ID token lives in localStorage `token` (the product's contract); the user is
// fetched from GET /api/me whenever a token exists. Other tabs follow through the `storage`
// event: a token removed elsewhere signs this tab out, a new one signs it in.
// "unreachable": a token is stored but GET /api/me failed for another reason than the session
// (the server restarting, a network drop): the session is kept and retried, never ended.
export type SessionStatus = "loading" | "signedIn" | "signedOut" | "unreachable";

export interface SessionValue {
  user: User | null;
  status: SessionStatus;
  /** Why the session last ended here: "logout" when this tab's user asked for it. */
  endedBy: "logout" | "elsewhere" | null;
  /** The user, or the challenge to answer with a code when the account has MFA on. */
  signIn(email: string, password: string): Promise<User | MfaChallenge>;
  /** The second step of a sign-in with MFA: a TOTP code or a recovery code. */
  completeMfa(challenge: string, code: string): Promise<User>;
  /**
   * After a sign-in with the school's provider (the server set the refresh cookie and sent the
   * browser to /login?oidc=signed_in): the cookie traded for an ID token.
   */
  resume(): Promise<User>;
  signOut(): Promise<void>;
  /** Fetches GET /api/me again (e.g. after verifying the email). */
  refresh(): Promise<User | null>;
  setUser(user: User): void;
}

const SessionContext = createContext<SessionValue | null>(null);
const retryUnreachableMs = 3000;

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<User | null>(null);
  const [status, setStatus] = useState<SessionStatus>(() => (getToken() ? "loading" : "signedOut"));
  const [endedBy, setEndedBy] = useState<SessionValue["endedBy"]>(null);
  const generation = useRef(0);
  const userRef = useRef<User | null>(null);
  userRef.current = user;

  // What this browser keeps for a signed-in person goes with the session (api/device-draft.ts):
  // everything at logout, the questionnaire's answers whenever the session ends.
  const endLocally = useCallback((reason: "logout" | "elsewhere" = "elsewhere") => {
    forgetDrafts(reason === "logout" ? "logout" : "sessionEnded");
    generation.current += 1;
    setEndedBy(reason);
    setUserState(null);
    setStatus("signedOut");
    announceSessionChange();
  }, []);

  const refresh = useCallback(async (): Promise<User | null> => {
    const mine = ++generation.current;
    if (!getToken()) {
      endLocally();
      return null;
    }
    try {
      const me = await api<User>("GET", "/api/me");
      if (mine !== generation.current) return me;
      setUserState(me);
      setStatus("signedIn");
      setEndedBy(null);
      return me;
    } catch (err) {
      if (mine !== generation.current) return null;
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
        setToken(null);
        endLocally();
        return null;
      }
      // The server could not be reached or failed: keep the token; the guard says so and retries.
      setStatus((prev) => (prev === "loading" || prev === "unreachable" ? "unreachable" : prev));
      throw err;
    }
  }, [endLocally]);

  const start = useCallback((session: Session): User => {
    generation.current += 1;
    announceSessionChange();
    setToken(session.token);
    // Issue 31: this sign-in cancelled the account's deletion; the app's frame says so once.
    if (session.deletionCancelled) {
      try {
        sessionStorage.setItem(deletionCancelledKey, "1");
      } catch {
        // Storage refused: the notice is not shown.
      }
    }
    setEndedBy(null);
    setUserState(session.user);
    setStatus("signedIn");
    return session.user;
  }, []);

  const signIn = useCallback(
    async (email: string, password: string): Promise<User | MfaChallenge> => {
      const answer = await api<Session | MfaChallenge>(
        "POST",
        "/api/auth/login",
        { email, password },
        { auth: false },
      );
      return "mfaRequired" in answer ? answer : start(answer);
    },
    [start],
  );

  const completeMfa = useCallback(
    async (challenge: string, code: string): Promise<User> =>
      start(await api<Session>("POST", "/api/auth/mfa", { challenge, code }, { auth: false })),
    [start],
  );

  const resume = useCallback(
    async (): Promise<User> =>
      start(await api<Session>("POST", "/api/auth/refresh", undefined, { auth: false })),
    [start],
  );

  const signOut = useCallback(async () => {
    setToken(null);
    endLocally("logout");
    try {
      await api<void>("POST", "/api/auth/logout", undefined, { auth: false });
    } catch {
      // Signed out here either way; the server session ends with its refresh token's lifetime.
    }
  }, [endLocally]);

  const setUser = useCallback((next: User) => {
    setUserState(next);
  }, []);

  // First load: fetch the user when a token is stored.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once at start
  useEffect(() => {
    if (getToken()) refresh().catch(() => undefined);
  }, []);

  // Unreachable at start: try again every few seconds, as the guard's banner says.
  useEffect(() => {
    if (status !== "unreachable") return;
    const timer = setTimeout(() => refresh().catch(() => undefined), retryUnreachableMs);
    return () => clearTimeout(timer);
  }, [status, refresh]);

  // Other tabs, and a refresh the server refused.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== tokenKey && event.key !== null) return;
      const token = getToken();
      if (!token) {
        endLocally("elsewhere");
        return;
      }
      // A token renewed by another tab is just used; one of another user replaces this one's.
      const current = userRef.current;
      if (event.oldValue === null || !current || tokenSubject(token) !== current.uid) {
        if (current) announceSessionChange();
        refresh().catch(() => undefined);
      }
    };
    const onEnded = () => endLocally("elsewhere");
    window.addEventListener("storage", onStorage);
    window.addEventListener(sessionEndedEvent, onEnded);
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener(sessionEndedEvent, onEnded);
    };
  }, [endLocally, refresh]);

  const value = useMemo<SessionValue>(
    () => ({ user, status, endedBy, signIn, completeMfa, resume, signOut, refresh, setUser }),
    [user, status, endedBy, signIn, completeMfa, resume, signOut, refresh, setUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession must be used inside <SessionProvider>");
  return value;
}

/**
 * The signed-in user for a page that shows the account itself (dashboard, profile): the
 * session's user, read again from GET /api/me when the page opens, so that a change made
 * elsewhere (an admin's approval, another device) shows. The session is the one store of who
 * is signed in; there is no second copy to keep in step.
 */
export function useFreshUser(): User | null {
  const { user, refresh } = useSession();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per visit of the page
  useEffect(() => {
    refresh().catch(() => undefined);
  }, []);
  return user;
}
