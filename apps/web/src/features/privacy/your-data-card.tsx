import { deletionConfirmation } from "@gradecast/contract/data-rights";
import { routes } from "@gradecast/contract/routes/index";
import { useState } from "react";
import { Link } from "react-router";
import { call, downloadFile, routeUrl } from "../../api/client.ts";
import { useSession } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { useDownload } from "../../components/use-download.ts";
import { useIntl } from "../../i18n/intl.tsx";
import { useReauth } from "../account-security/reauth.tsx";
import { useShortDay } from "./short-day.ts";

// Settings, "Your data" (issue 31): download everything held about you (a ZIP of JSON and CSV),
// and delete your account: the password is asked again, you are signed out everywhere, and the
// data goes after the grace period unless you sign in before it ends.
export function YourDataCard() {
  const intl = useIntl();
  const day = useShortDay();
  const title = intl.formatMessage({ id: "privacyPages.yourData.title" });
  const { signOut } = useSession();
  const reauth = useReauth();
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState<string | null>(null);

  const {
    running: exporting,
    error: exportError,
    start: download,
  } = useDownload(() =>
    downloadFile(routeUrl(routes.privacy.exportMine.key), "gradecast-export.zip"),
  );

  async function deleteAccount() {
    const answer = await reauth.run(() =>
      call(routes.privacy.deleteMine.key, { body: { confirm: deletionConfirmation } }),
    );
    setConfirming(false);
    setDeleted(day(answer.dueAt));
  }

  if (deleted) {
    return (
      <Card title={title} id="your-data" aria-label={title}>
        <Alert
          tone="success"
          title={intl.formatMessage({ id: "privacyPages.yourData.deletedOn" }, { day: deleted })}
        >
          {intl.formatMessage({ id: "privacyPages.yourData.deletionRequested" })}
        </Alert>
        <Button type="button" onClick={() => void signOut()}>
          {intl.formatMessage({ id: "privacyPages.yourData.toSignIn" })}
        </Button>
      </Card>
    );
  }

  return (
    <Card title={title} id="your-data" aria-label={title}>
      <p>
        {intl.formatMessage(
          { id: "privacyPages.yourData.explain" },
          { link: (chunks) => <Link to="/privacy">{chunks}</Link> },
        )}
      </p>
      {exportError ? <Alert tone="error">{exportError}</Alert> : null}
      <div className="actions">
        <Button type="button" onClick={download} disabled={exporting}>
          {exporting
            ? intl.formatMessage({ id: "privacyPages.yourData.preparing" })
            : intl.formatMessage({ id: "privacyPages.yourData.download" })}
        </Button>
        <Button type="button" variant="danger" onClick={() => setConfirming(true)}>
          {intl.formatMessage({ id: "privacyPages.yourData.delete" })}
        </Button>
      </div>
      {confirming ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: "privacyPages.yourData.confirmTitle" })}
          confirmLabel={intl.formatMessage({ id: "privacyPages.yourData.delete" })}
          variant="danger"
          onConfirm={deleteAccount}
          onClose={() => setConfirming(false)}
        >
          <p>{intl.formatMessage({ id: "privacyPages.yourData.confirm" })}</p>
        </ConfirmDialog>
      ) : null}
      {reauth.dialog}
    </Card>
  );
}
