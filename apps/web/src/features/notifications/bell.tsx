import { Link } from "react-router";
import { useNotifications } from "./api.ts";

/**
 * The header's link to the notifications, with the number unread: loaded lazily by the app's
 * frame, so that the first screen (/login) carries neither this nor its query code.
 */
export default function NotificationBell() {
  const list = useNotifications();
  const unread = list.data?.unread ?? 0;
  return (
    <Link to="/notifications" className="topbar-link notification-bell">
      Notifications
      {unread > 0 ? (
        <span className="sidebar-count" data-testid="unread-count">
          {unread}
          <span className="visually-hidden"> unread</span>
        </span>
      ) : null}
    </Link>
  );
}
