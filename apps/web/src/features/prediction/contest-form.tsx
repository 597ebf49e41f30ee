import { contestLimit, oversightNotice } from "@gradecast/contract/consent";
import { routes } from "@gradecast/contract/routes/index";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { call } from "../../api/client.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextArea } from "../../components/field.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { dateTime } from "./format.ts";
import "../consent/consent.css";

// Human oversight (issue 31): every estimate says it is one and that a teacher decides; the
// student can say why theirs is wrong. What they write reaches their class's teachers on the
// risk list and is kept with the prediction; saying it again replaces it.

export function OversightNotice() {
  return (
    <Alert tone="info" title="An estimate, not a decision">
      <p>{oversightNotice}</p>
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

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    contest.mutate(form.values.reason, { onError: form.refused });
  }

  return (
    <Card title="This prediction is wrong because…">
      <p>
        Your class teachers read what you write here next to this estimate. Sending it again
        replaces what you sent before.
      </p>
      {contest.isSuccess ? (
        <Alert tone="success">
          <p>
            Sent to your class teachers on {dateTime(contest.data.createdAt)}: “
            {contest.data.reason}”
          </p>
        </Alert>
      ) : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextArea
          label="Why the estimate is wrong"
          rows={4}
          maxLength={contestLimit}
          {...form.field("reason")}
        />
        <p className="consent-counter" aria-live="polite">
          {length} of {contestLimit} characters
        </p>
        <p className="form-error" role="alert">
          {form.message}
        </p>
        <Button type="submit" loading={contest.isPending}>
          {contest.isSuccess ? "Send again (replaces it)" : "Send to my teachers"}
        </Button>
      </form>
    </Card>
  );
}
