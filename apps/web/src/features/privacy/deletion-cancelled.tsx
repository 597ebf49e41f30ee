import { useState } from "react";
import { deletionCancelledKey } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";
import { useIntl } from "../../i18n/intl.tsx";

// After a sign-in that cancelled the account's pending deletion (issue 31): said once, on the
// first page after signing in.
export default function DeletionCancelled() {
  const intl = useIntl();
  const [shown] = useState(() => {
    try {
      const set = sessionStorage.getItem(deletionCancelledKey) === "1";
      sessionStorage.removeItem(deletionCancelledKey);
      return set;
    } catch {
      return false;
    }
  });
  return shown ? (
    <Alert tone="info" title={intl.formatMessage({ id: "privacyPages.cancelled.title" })}>
      {intl.formatMessage({ id: "privacyPages.cancelled.text" })}
    </Alert>
  ) : null;
}
