import { reasonText } from "@gradecast/contract/class-risk";
import { Link } from "react-router";
import { ErrorAlert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { errorMessage } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { QueryView } from "../components/query-view.tsx";
import { useFormats } from "../components/use-formats.ts";
import { useMarkRead, useNotifications } from "../features/notifications/api.ts";
import "../features/notifications/notifications.css";
import { useT } from "../i18n/intl.tsx";

// The caller's notifications (issue 32): a student's risk crossing for their class's teachers
// (with the reasons the risk list shows), a report or a record change for the student. Unread
// ones are marked; "Mark all read" clears the count in the header.
// Every part in numbers, as toLocaleString() writes a date and time.
const numericTime = {
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
} as const;

export default function Notifications() {
  const list = useNotifications();
  const markRead = useMarkRead();
  const { intl, t } = useT();
  const formats = useFormats();
  return (
    <div className="stack">
      <PageHeader title={t("notifications.title")} description={t("notifications.description")} />
      <QueryView query={list} loading={t("notifications.loading")}>
        {(data) => (
          <Card
            title={intl.formatMessage({ id: "notifications.unread" }, { count: data.unread })}
            actions={
              data.unread > 0 ? (
                <Button
                  variant="secondary"
                  loading={markRead.isPending}
                  onClick={() => markRead.mutate({ all: true })}
                >
                  {t("notifications.markAllRead")}
                </Button>
              ) : null
            }
          >
            <ErrorAlert message={markRead.isError ? errorMessage(markRead.error) : null} />
            {data.items.length === 0 ? (
              <EmptyState title={t("notifications.empty.title")}>
                {t("notifications.empty.text")}
              </EmptyState>
            ) : (
              <ul className="notification-list">
                {data.items.map((n) => (
                  <li
                    key={n.id}
                    className={n.readAt ? "notification" : "notification notification-unread"}
                  >
                    <p className="notification-title">
                      {n.readAt ? null : (
                        <span className="tag tag-warn">{t("notifications.new")}</span>
                      )}{" "}
                      {n.class && (n.kind === "risk_up" || n.kind === "risk_down") ? (
                        <Link to={`/classes/${n.class.id}`}>{n.title}</Link>
                      ) : (
                        n.title
                      )}
                    </p>
                    {n.prediction !== null && (n.kind === "risk_up" || n.kind === "risk_down") ? (
                      <p className="muted">
                        {intl.formatMessage(
                          { id: "notifications.predicted" },
                          { score: formats.score(n.prediction) },
                        )}
                        {n.reasons.length > 0
                          ? ` · ${intl.formatMessage(
                              { id: "notifications.reasons" },
                              { reasons: n.reasons.map(reasonText).join("; ") },
                            )}`
                          : ""}
                      </p>
                    ) : null}
                    <p className="muted small">
                      {intl.formatDate(n.createdAt, numericTime)}{" "}
                      {n.readAt ? null : (
                        <Button
                          variant="ghost"
                          onClick={() => markRead.mutate({ ids: [n.id] })}
                          aria-label={intl.formatMessage(
                            { id: "notifications.markReadLabel" },
                            { title: n.title },
                          )}
                        >
                          {t("notifications.markRead")}
                        </Button>
                      )}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        )}
      </QueryView>
    </div>
  );
}
