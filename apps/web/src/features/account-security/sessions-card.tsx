import { useState } from "react";
import { Alert, OutcomeAlert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useFormats } from "../../components/use-formats.ts";
import { type PageIntl, useT } from "../../i18n/intl.tsx";
import { useEndSession, useSessions } from "./api.ts";

// The signed-in user's sessions (GET /api/me/sessions): where and when each was used, this one
// marked; any other can be ended, or all of them at once.

/** A short name for a User-Agent string: the browser and the system. */
export function browserName(userAgent: string | null, intl: PageIntl): string {
  if (!userAgent) return intl.formatMessage({ id: "account.sessions.unknownBrowser" });
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
  return system
    ? intl.formatMessage({ id: "account.sessions.browserOn" }, { browser, system })
    : browser;
}

export function SessionsCard() {
  const query = useSessions();
  const { intl, t } = useT();
  const when = useFormats().dayTime;
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
          text: id ? t("account.sessions.ended") : t("account.sessions.allEnded"),
        }),
      onError: (err) => setOutcome({ ok: false, text: err.message }),
    });
  };

  const sessions = query.data?.sessions ?? [];
  const others = sessions.filter((s) => !s.current);
  return (
    <Card title={t("account.sessions.title")} aria-label={t("account.sessions.label")}>
      <p className="muted">{t("account.sessions.intro")}</p>
      {query.isPending ? <Spinner label={t("account.sessions.loading")} /> : null}
      {query.isError ? <Alert tone="error">{query.error.message}</Alert> : null}
      <ul className="session-list">
        {sessions.map((s) => (
          <li key={s.id} className="session-item">
            <div>
              <strong>{browserName(s.userAgent, intl)}</strong>
              {s.current ? (
                <span className="badge"> {t("account.sessions.thisBrowser")}</span>
              ) : null}
              <p className="muted">
                {intl.formatMessage(
                  { id: "account.sessions.details" },
                  {
                    ip: s.ip ?? t("account.sessions.unknownAddress"),
                    created: when(s.createdAt),
                    used: when(s.lastUsedAt),
                  },
                )}{" "}
                ·{" "}
                {s.method.startsWith("oidc:")
                  ? intl.formatMessage(
                      { id: "account.sessions.withProvider" },
                      { provider: s.method.slice(5) },
                    )
                  : t("account.sessions.withPassword")}
              </p>
            </div>
            {s.current ? null : (
              <Button
                variant="ghost"
                onClick={() => end(s.id)}
                loading={busy === s.id}
                aria-label={intl.formatMessage(
                  { id: "account.sessions.endLabel" },
                  {
                    browser: browserName(s.userAgent, intl),
                    ip: s.ip ?? t("account.sessions.unknownAddressLower"),
                  },
                )}
              >
                {t("account.sessions.end")}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <OutcomeAlert outcome={outcome} />
      {others.length > 0 ? (
        <Button variant="ghost" onClick={() => end(null)} loading={busy === "all"}>
          {t("account.sessions.endAll")}
        </Button>
      ) : null}
    </Card>
  );
}
