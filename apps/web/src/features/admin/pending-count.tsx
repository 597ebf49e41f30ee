import { usePendingTeacherCount } from "./api.ts";

/**
 * "N waiting" beside the admin's Users link: loaded lazily by the sidebar, so that the first
 * screen (/login) does not carry the admin API and its query code (scripts/check-bundle.mjs).
 */
export default function PendingCount() {
  const pending = usePendingTeacherCount(true);
  return pending.data ? (
    <span className="sidebar-count">
      {pending.data} waiting<span className="visually-hidden"> for approval</span>
    </span>
  ) : null;
}
