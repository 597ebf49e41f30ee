import { schoolRecordKeys } from "@gradecast/contract/class-risk";
import { useId, useState } from "react";
import { formErrors } from "../../api/form-errors.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { useShareExplanation, useSharing } from "./api.ts";
import { usePredictionText } from "./text.ts";

// What a student's teachers see of their prediction (issue 20): by default the figures and the
// reasons from the school record only; the student may choose to share the full explanation,
// and take it back at any time. Saved as soon as the box changes.

export function ShareExplanation() {
  const id = useId();
  const sharing = useSharing();
  const saving = useShareExplanation();
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const text = usePredictionText();
  const { t } = text;
  const recordNames = text.list(
    schoolRecordKeys.map((k) => text.label(k)),
    "comma",
  );

  function change(shareExplanation: boolean) {
    setMessage(null);
    saving.mutate(shareExplanation, {
      onSuccess: (saved) =>
        setMessage({
          tone: "success",
          text: t(saved.shareExplanation ? "prediction.sharing.on" : "prediction.sharing.off"),
        }),
      onError: (err) => setMessage({ tone: "error", text: formErrors(err, []).message ?? "" }),
    });
  }

  return (
    <Card title={t("prediction.sharing.title")}>
      <p>{text.intl.formatMessage({ id: "prediction.sharing.intro" }, { recordNames })}</p>
      {sharing.isSuccess ? (
        <div className="check-row">
          <input
            id={id}
            type="checkbox"
            checked={sharing.data.shareExplanation}
            disabled={saving.isPending}
            onChange={(e) => change(e.target.checked)}
          />
          <label htmlFor={id}>{t("prediction.sharing.share")}</label>
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
        <Alert tone="error">{t("prediction.sharing.loadFailed")}</Alert>
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
  const { intl, list } = usePredictionText();
  const names = (teachers: { name: string }[]) =>
    list(
      teachers.map((t) => t.name),
      "comma",
    );
  return (
    <div className="shared-with">
      <p>
        {sharedWith.length > 0
          ? intl.formatMessage(
              { id: "prediction.sharing.sharedWith" },
              { names: names(sharedWith) },
            )
          : intl.formatMessage({ id: "prediction.sharing.sharedWithNone" })}
      </p>
      {notSharedWith.length > 0 ? (
        <p>
          {intl.formatMessage(
            { id: "prediction.sharing.notSharedWith" },
            { names: names(notSharedWith) },
          )}{" "}
          <Button variant="secondary" loading={busy} onClick={onShareAgain}>
            {intl.formatMessage({ id: "prediction.sharing.shareAgain" })}
          </Button>
        </p>
      ) : null}
    </div>
  );
}
