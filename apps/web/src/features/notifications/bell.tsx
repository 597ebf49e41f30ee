import { Link } from "react-router";
import { useIntl } from "../../i18n/intl.tsx";
import { useNotifications } from "./api.ts";
import "./notifications.css";

/**
 * The header's link to the notifications, with the number unread: loaded lazily by the app's
 * frame, so that the first screen (/login) carries neither this nor its query code.
 */
export default function NotificationBell() {
  const list = useNotifications();
  const unread = list.data?.unread ?? 0;
  const intl = useIntl();
  return (
    <Link to="/notifications" className="topbar-link notification-bell">
      <svg
        className="bell-glyph"
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="18"
        height="18"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {/* On a phone the bell alone shows; the name stays for screen readers. */}
      <span className="bell-text">{intl.formatMessage({ id: "notifications.title" })}</span>
      {unread > 0 ? (
        <span className="sidebar-count" data-testid="unread-count">
          {unread}
          <span className="visually-hidden">
            {" "}
            {intl.formatMessage({ id: "notifications.bell.unread" }, { count: unread })}
          </span>
        </span>
      ) : null}
    </Link>
  );
}
