import { contestLimit } from "@gradecast/contract/consent";
import { routes } from "@gradecast/contract/routes/index";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { call } from "../../api/client.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextArea } from "../../components/field.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { usePredictionText } from "./text.ts";
import "../consent/consent.css";

// Human oversight (issue 31): every estimate says it is one and that a teacher decides; the
// student can say why theirs is wrong. What they write reaches their class's teachers on the
// risk list and is kept with the prediction; saying it again replaces it.

export function OversightNotice() {
  const { intl } = usePredictionText();
  return (
    <Alert tone="info" title={intl.formatMessage({ id: "prediction.oversight.title" })}>
      <p>{intl.formatMessage({ id: "prediction.oversight.text" })}</p>
    </Alert>
  );
}

export function ContestForm({ predictionId }: { predictionId: string }) {
  const form = useFormFields({ reason: "" });
  const contest = useMutation({
    mutationFn: (reason: string) =>
      call(routes.consent.contest.key, { params: { id: predictionId }, body: { reason } }),
  });
  const length = form.values.reason.length;
  const { intl, t, dayTime } = usePredictionText();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    contest.mutate(form.values.reason, { onError: form.refused });
  }

  return (
    <Card title={t("prediction.contest.title")}>
      <p>{t("prediction.contest.intro")}</p>
      {contest.isSuccess ? (
        <Alert tone="success">
          <p>
            {intl.formatMessage(
              { id: "prediction.contest.sent" },
              { when: dayTime(contest.data.createdAt), reason: contest.data.reason },
            )}
          </p>
        </Alert>
      ) : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextArea
          label={t("prediction.contest.why")}
          rows={4}
          maxLength={contestLimit}
          {...form.field("reason")}
        />
        <p className="consent-counter" aria-live="polite">
          {intl.formatMessage(
            { id: "prediction.contest.counter" },
            { length: String(length), limit: String(contestLimit) },
          )}
        </p>
        <p className="form-error" role="alert">
          {form.message}
        </p>
        <Button type="submit" loading={contest.isPending}>
          {t(contest.isSuccess ? "prediction.contest.sendAgain" : "prediction.contest.send")}
        </Button>
      </form>
    </Card>
  );
}
