import { formatDayTime } from "@gradecast/contract/dates";
import { signInMethodLabel } from "@gradecast/contract/oidc";
import { useState } from "react";
import { Alert, OutcomeAlert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useEndSession, useSessions } from "./api.ts";

// The signed-in user's sessions (GET /api/me/sessions): where and when each was used, this one
// marked; any other can be ended, or all of them at once.

/** A short name for a User-Agent string: the browser and the system. */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : userAgent.slice(0, 40);
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux|CrOS/.test(userAgent)
            ? "Linux"
            : "";
  return system ? `${browser} on ${system}` : browser;
}

const when = (iso: string) => formatDayTime(iso);

export function SessionsCard() {
  const query = useSessions();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const ending = useEndSession();
  const busy = ending.isPending ? (ending.variables ?? "all") : null;
  // null ends every other session.
  const end = (id: string | null) => {
    setOutcome(null);
    ending.mutate(id, {
      onSuccess: () =>
        setOutcome({
          ok: true,
          text: id ? "The session has ended." : "Every other session has ended.",
        }),
      onError: (err) => setOutcome({ ok: false, text: err.message }),
    });
  };

  const sessions = query.data?.sessions ?? [];
  const others = sessions.filter((s) => !s.current);
  return (
    <Card title="Where you are logged in" aria-label="Sessions">
      <p className="muted">
        Each browser you logged in with. End any you do not recognise or no longer use: it is logged
        out at its next action. Sessions end by themselves after 7 days unused and 30 days after
        signing in.
      </p>
      {query.isPending ? <Spinner label="Loading sessions..." /> : null}
      {query.isError ? <Alert tone="error">{query.error.message}</Alert> : null}
      <ul className="session-list">
        {sessions.map((s) => (
          <li key={s.id} className="session-item">
            <div>
              <strong>{browserName(s.userAgent)}</strong>
              {s.current ? <span className="badge"> This browser</span> : null}
              <p className="muted">
                {s.ip ?? "Unknown address"} · logged in {when(s.createdAt)} · last used{" "}
                {when(s.lastUsedAt)} · {signInMethodLabel(s.method)}
              </p>
            </div>
            {s.current ? null : (
              <Button
                variant="ghost"
                onClick={() => end(s.id)}
                loading={busy === s.id}
                aria-label={`End session: ${browserName(s.userAgent)}, ${s.ip ?? "unknown address"}`}
              >
                End
              </Button>
            )}
          </li>
        ))}
      </ul>
      <OutcomeAlert outcome={outcome} />
      {others.length > 0 ? (
        <Button variant="ghost" onClick={() => end(null)} loading={busy === "all"}>
          End all other sessions
        </Button>
      ) : null}
    </Card>
  );
}
