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
import { announceSessionChange } from "./session-events.ts";
import { tokenSubject } from "./token-subject.ts";

// Who is signed in. The ID token lives in localStorage `token` (SPEC.md section 3); the user is
// fetched from GET /api/me whenever a token exists. Other tabs follow through the `storage`
// event: a token removed elsewhere signs this tab out, a new one signs it in.
export type SessionStatus = "loading" | "signedIn" | "signedOut";

export interface SessionValue {
  user: User | null;
  status: SessionStatus;
  /** Why the session last ended here: "logout" when this tab's user asked for it. */
  endedBy: "logout" | "elsewhere" | null;
  signIn(email: string, password: string): Promise<User>;
  signOut(): Promise<void>;
  /** Fetches GET /api/me again (e.g. after verifying the email). */
  refresh(): Promise<User | null>;
  setUser(user: User): void;
}

const SessionContext = createContext<SessionValue | null>(null);

// What this browser keeps for a signed-in person (the questionnaire's draft) goes when they sign
// out: school computers are shared, and the answers are personal.
function forgetUserData() {
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith("gradecast:")) localStorage.removeItem(key);
    }
  } catch {
    // storage unavailable: nothing kept
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<User | null>(null);
  const [status, setStatus] = useState<SessionStatus>(() => (getToken() ? "loading" : "signedOut"));
  const [endedBy, setEndedBy] = useState<SessionValue["endedBy"]>(null);
  const generation = useRef(0);
  const userRef = useRef<User | null>(null);
  userRef.current = user;

  const endLocally = useCallback((reason: "logout" | "elsewhere" = "elsewhere") => {
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
      // The server could not be reached: keep the token and let the guard offer a retry.
      setStatus((prev) => (prev === "loading" ? "signedOut" : prev));
      throw err;
    }
  }, [endLocally]);

  const signIn = useCallback(async (email: string, password: string): Promise<User> => {
    const session = await api<Session>(
      "POST",
      "/api/auth/login",
      { email, password },
      { auth: false },
    );
    generation.current += 1;
    announceSessionChange();
    setToken(session.token);
    setEndedBy(null);
    setUserState(session.user);
    setStatus("signedIn");
    return session.user;
  }, []);

  const signOut = useCallback(async () => {
    setToken(null);
    forgetUserData();
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
    () => ({ user, status, endedBy, signIn, signOut, refresh, setUser }),
    [user, status, endedBy, signIn, signOut, refresh, setUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession must be used inside <SessionProvider>");
  return value;
}
