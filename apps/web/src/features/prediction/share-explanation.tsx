import { riskMessages, schoolRecordKeys } from "@gradecast/contract/class-risk";
import { questionByKey } from "@gradecast/contract/questionnaire";
import { useId, useState } from "react";
import { formErrors } from "../../api/form-errors.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { useShareExplanation, useSharing } from "./api.ts";

// What a student's teachers see of their prediction (issue 20): by default the figures and the
// reasons from the school record only; the student may choose to share the full explanation,
// and take it back at any time. Saved as soon as the box changes.

const recordNames = schoolRecordKeys.map((k) => questionByKey[k].label).join(", ");

export function ShareExplanation() {
  const id = useId();
  const sharing = useSharing();
  const saving = useShareExplanation();
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  function change(shareExplanation: boolean) {
    setMessage(null);
    saving.mutate(shareExplanation, {
      onSuccess: (saved) =>
        setMessage({
          tone: "success",
          text: saved.shareExplanation ? riskMessages.sharingOn : riskMessages.sharingOff,
        }),
      onError: (err) => setMessage({ tone: "error", text: formErrors(err, []).message ?? "" }),
    });
  }

  return (
    <Card title="What your teachers see">
      <p>
        Your teachers see your predicted score, its range, and the reasons from your school record (
        {recordNames}). Your other answers, such as family, going out, relationships and health, are
        shown to them only as one total, "Other answers".
      </p>
      {sharing.isSuccess ? (
        <div className="check-row">
          <input
            id={id}
            type="checkbox"
            checked={sharing.data.shareExplanation}
            disabled={saving.isPending}
            onChange={(e) => change(e.target.checked)}
          />
          <label htmlFor={id}>Share my full explanation with my teachers</label>
        </div>
      ) : null}
      {sharing.isSuccess && sharing.data.shareExplanation ? (
        <SharedWith
          sharedWith={sharing.data.sharedWith}
          notSharedWith={sharing.data.notSharedWith}
          busy={saving.isPending}
          onShareAgain={() => change(true)}
        />
      ) : sharing.isError ? (
        <Alert tone="error">
          Your sharing choice could not be loaded. Reload the page to try again.
        </Alert>
      ) : null}
      <Alert tone={message?.tone ?? "success"}>{message?.text ?? ""}</Alert>
    </Card>
  );
}

/**
 * Whom the sharing applies to (issue 26): the teachers it was given to. Teachers of a class
 * joined since, or added to a class since, do not see it until the student shares again.
 */
function SharedWith({
  sharedWith,
  notSharedWith,
  busy,
  onShareAgain,
}: {
  sharedWith: { id: string; name: string }[];
  notSharedWith: { id: string; name: string }[];
  busy: boolean;
  onShareAgain: () => void;
}) {
  return (
    <div className="shared-with">
      <p>
        {sharedWith.length > 0
          ? `Shared with: ${sharedWith.map((t) => t.name).join(", ")}.`
          : "Shared with none of your current teachers."}
      </p>
      {notSharedWith.length > 0 ? (
        <p>
          Not shared with {notSharedWith.map((t) => t.name).join(", ")}:{" "}
          {riskMessages.sharingNewTeachers}{" "}
          <Button variant="secondary" loading={busy} onClick={onShareAgain}>
            Share with them too
          </Button>
        </p>
      ) : null}
    </div>
  );
}
