import { dataRightsMessages } from "@gradecast/contract/data-rights";
import { useState } from "react";
import { deletionCancelledKey } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";

// After a sign-in that cancelled the account's pending deletion (issue 31): said once, on the
// first page after signing in.
export default function DeletionCancelled() {
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
    <Alert tone="info" title="Your account is not being deleted">
      {dataRightsMessages.deletionCancelled}
    </Alert>
  ) : null;
}
