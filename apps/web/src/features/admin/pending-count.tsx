import { useIntl } from "../../i18n/intl.tsx";
import { usePendingTeacherCount } from "./api.ts";

/**
 * "N waiting" beside the admin's Users link: loaded lazily by the sidebar, so that the first
 * screen (/login) does not carry the admin API and its query code (scripts/check-bundle.mjs).
 */
export default function PendingCount() {
  const pending = usePendingTeacherCount(true);
  const intl = useIntl();
  return pending.data ? (
    <span className="sidebar-count">
      {intl.formatMessage({ id: "admin.pending.waiting" }, { count: pending.data })}
      <span className="visually-hidden">
        {" "}
        {intl.formatMessage({ id: "admin.pending.forApproval" })}
      </span>
    </span>
  ) : null;
}
