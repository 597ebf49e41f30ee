import { type FormEvent, type ReactNode, useId, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { type Outcome, OutcomeAlert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import type { ReportFormValues } from "./api.ts";
import { checkReport } from "./form.ts";
import { ReportFields, type ReportFieldsProps } from "./report-fields.tsx";
import { useReportText } from "./text.ts";

// A student report's form, the same for Teacher Input and the edit dialog: the contract's schema
// checks it before anything is sent; a refusal's field messages are shown beside the fields
// (the contract's one message for the form), anything else in the form's message; the
// fields are read-only and focus stays on the button while it is saved.

/** What a failed save shows when the server did not name the fields. */
export type Refusal = (err: unknown) => { fields: Record<string, string>; text: string };

export function ReportForm({
  label,
  values,
  onChange,
  save,
  saving,
  refusal,
  submitLabel,
  studentField,
  children,
}: {
  label: string;
  values: ReportFormValues;
  onChange: (next: ReportFormValues) => void;
  /** Sends the report; resolves to what to say once it is saved (null: nothing, the form goes). */
  save: (values: ReportFormValues) => Promise<string | null>;
  saving: boolean;
  refusal: Refusal;
  submitLabel: string;
  studentField?: ReportFieldsProps["studentField"];
  /** More buttons after the submit button (Cancel). */
  children?: ReactNode;
}) {
  const messageId = `report-message${useId()}`;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { contract, formMessage } = useReportText();

  // A field's refusal goes once that field is changed (the others keep theirs until the next send).
  function change(next: ReportFormValues) {
    setErrors((e) => {
      const kept = Object.fromEntries(
        Object.entries(e).filter(
          ([k]) =>
            !(k in next) ||
            next[k as keyof ReportFormValues] === values[k as keyof ReportFormValues],
        ),
      );
      return Object.keys(kept).length === Object.keys(e).length ? e : kept;
    });
    onChange(next);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    const check = checkReport(values);
    // The schema's messages are the contract's English: said in the page's language.
    setErrors(Object.fromEntries(Object.entries(check.fields).map(([k, v]) => [k, contract(v)])));
    if (check.message) {
      setOutcome({ ok: false, text: contract(check.message) });
      return;
    }
    try {
      // A number pasted with spaces around it ("85 ") is sent as the number it is.
      const text = await save({
        ...values,
        marks: values.marks.trim(),
        attendance: values.attendance.trim(),
        assignments: values.assignments.trim(),
      });
      setErrors({});
      if (text) setOutcome({ ok: true, text });
    } catch (err) {
      const shown =
        err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length > 0
          ? { fields: err.fields, text: formMessage(err.fields) ?? err.message }
          : refusal(err);
      setErrors(shown.fields);
      setOutcome({ ok: false, text: shown.text });
    }
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={label}>
      <ReportFields
        values={values}
        onChange={change}
        errors={errors}
        formMessage={outcome && !outcome.ok ? outcome.text : null}
        formMessageId={messageId}
        disabled={saving}
        studentField={studentField}
      />
      <div id={messageId}>
        <OutcomeAlert outcome={outcome} />
      </div>
      <div className="actions">
        <Button type="submit" loading={saving}>
          {submitLabel}
        </Button>
        {children}
      </div>
    </form>
  );
}
