import { reasonText } from "@gradecast/contract/class-risk";
import { formatScore } from "@gradecast/contract/score";
import { Link } from "react-router";
import { ErrorAlert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { errorMessage } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { QueryView } from "../components/query-view.tsx";
import { useMarkRead, useNotifications } from "../features/notifications/api.ts";
import "../features/notifications/notifications.css";

// The caller's notifications (issue 32): a student's risk crossing for their class's teachers
// (with the reasons the risk list shows), a report or a record change for the student. Unread
// ones are marked; "Mark all read" clears the count in the header.
export default function Notifications() {
  const list = useNotifications();
  const markRead = useMarkRead();
  return (
    <div className="stack">
      <PageHeader
        title="Notifications"
        description="When a student of your classes crosses into or out of the risk list, and news about your own predictions and reports. Choose an email digest on your Profile page."
      />
      <QueryView query={list} loading="Loading your notifications...">
        {(data) => (
          <Card
            title={`${data.unread} unread`}
            actions={
              data.unread > 0 ? (
                <Button
                  variant="secondary"
                  loading={markRead.isPending}
                  onClick={() => markRead.mutate({ all: true })}
                >
                  Mark all read
                </Button>
              ) : null
            }
          >
            <ErrorAlert message={markRead.isError ? errorMessage(markRead.error) : null} />
            {data.items.length === 0 ? (
              <EmptyState title="No notifications yet">
                You will be told here when something needs your attention.
              </EmptyState>
            ) : (
              <ul className="notification-list">
                {data.items.map((n) => (
                  <li
                    key={n.id}
                    className={n.readAt ? "notification" : "notification notification-unread"}
                  >
                    <p className="notification-title">
                      {n.readAt ? null : <span className="tag tag-warn">New</span>}{" "}
                      {n.class && (n.kind === "risk_up" || n.kind === "risk_down") ? (
                        <Link to={`/classes/${n.class.id}`}>{n.title}</Link>
                      ) : (
                        n.title
                      )}
                    </p>
                    {n.prediction !== null && (n.kind === "risk_up" || n.kind === "risk_down") ? (
                      <p className="muted">
                        Predicted final {formatScore(n.prediction)}
                        {n.reasons.length > 0
                          ? ` · Reasons: ${n.reasons.map(reasonText).join("; ")}`
                          : ""}
                      </p>
                    ) : null}
                    <p className="muted small">
                      {new Date(n.createdAt).toLocaleString()}{" "}
                      {n.readAt ? null : (
                        <Button
                          variant="ghost"
                          onClick={() => markRead.mutate({ ids: [n.id] })}
                          aria-label={`Mark read: ${n.title}`}
                        >
                          Mark read
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
