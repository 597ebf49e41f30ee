import { dataRightsMessages, deletionConfirmation } from "@gradecast/contract/data-rights";
import { routes } from "@gradecast/contract/routes/index";
import { useState } from "react";
import { Link } from "react-router";
import { call, downloadFile, routeUrl } from "../../api/client.ts";
import { formErrors } from "../../api/form-errors.ts";
import { useSession } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { useReauth } from "../account-security/reauth.tsx";

// Settings, "Your data" (issue 31): download everything held about you (a ZIP of JSON and CSV),
// and delete your account: the password is asked again, you are signed out everywhere, and the
// data goes after the grace period unless you sign in before it ends.
export function YourDataCard() {
  const { signOut } = useSession();
  const reauth = useReauth();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState<string | null>(null);

  async function download() {
    setExporting(true);
    setExportError("");
    try {
      await downloadFile(routeUrl(routes.privacy.exportMine.key), "gradecast-export.zip");
    } catch (err) {
      setExportError(formErrors(err, []).message ?? "");
    } finally {
      setExporting(false);
    }
  }

  async function deleteAccount() {
    const answer = await reauth.run(() =>
      call(routes.privacy.deleteMine.key, { body: { confirm: deletionConfirmation } }),
    );
    setConfirming(false);
    setDeleted(new Date(answer.dueAt).toLocaleDateString());
  }

  if (deleted) {
    return (
      <Card title="Your data" id="your-data" aria-label="Your data">
        <Alert tone="success" title={`Your account will be deleted on ${deleted}.`}>
          {dataRightsMessages.deletionRequested}
        </Alert>
        <Button type="button" onClick={() => void signOut()}>
          Go to the sign-in page
        </Button>
      </Card>
    );
  }

  return (
    <Card title="Your data" id="your-data" aria-label="Your data">
      <p>
        Download everything Gradecast holds about you: your account, answers, predictions and their
        reasons, what teachers recorded about you, your sign-ins and the audit entries about your
        account, as JSON and CSV files in one ZIP. What is kept and why is in the{" "}
        <Link to="/privacy">privacy notice</Link>.
      </p>
      {exportError ? <Alert tone="error">{exportError}</Alert> : null}
      <div className="actions">
        <Button type="button" onClick={download} disabled={exporting}>
          {exporting ? "Preparing your file..." : "Download my data"}
        </Button>
        <Button type="button" variant="danger" onClick={() => setConfirming(true)}>
          Delete my account
        </Button>
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Delete your account?"
          confirmLabel="Delete my account"
          variant="danger"
          onConfirm={deleteAccount}
          onClose={() => setConfirming(false)}
        >
          <p>
            You will be signed out everywhere. After the grace period your answers, predictions,
            records and account are removed for good; the audit log keeps its entries under a
            pseudonym. Signing in again before then cancels the deletion. You may be asked for your
            password first.
          </p>
        </ConfirmDialog>
      ) : null}
      {reauth.dialog}
    </Card>
  );
}
