import { behaviors, reportLimits } from "@gradecast/contract/reports";
import type { ReactNode } from "react";
import { Field, TextArea } from "../../components/field.tsx";
import { Select } from "../../components/select.tsx";
import type { ReportFormValues } from "./api.ts";
import { type NumericField, numberError, numericFields } from "./form.ts";
import { useReportText } from "./text.ts";

// The fields of a student report, shared by the Teacher Input form and the edit dialog. What a
// teacher types in a numeric field is never changed (a mask that dropped keystrokes turned 101
// into 10 and 7.5 into 75, issue 28): a number out of the report's ranges stays as typed,
// the field is marked invalid at once with what is wrong beside it, and the form refuses it on
// send with the contract's one message. Another field's error is written beside it unless it is the
// form's own message, which is shown once.

export interface ReportFieldsProps {
  values: ReportFormValues;
  onChange: (next: ReportFormValues) => void;
  errors: Record<string, string>;
  /** The form-level message; a field whose error equals it is only marked invalid. */
  formMessage: string | null;
  formMessageId: string;
  /** While saving: read-only, not disabled, which would blur the field being typed in. */
  disabled?: boolean;
  /** Another control for the student (the Teacher Input's picker), given the field's state. */
  studentField?: (state: StudentFieldState) => ReactNode;
}

export interface StudentFieldState {
  error: string | undefined;
  invalid: boolean;
  describedBy: string | undefined;
  readOnly: boolean | undefined;
}

const numericHints: Record<NumericField, string> = {
  marks: "reports.hint.marks",
  attendance: "reports.hint.attendance",
  assignments: "reports.hint.assignments",
};

/** The numbers' names, as the form, the details and the lists write them. */
export const numericLabels: Record<NumericField, string> = {
  marks: "reports.field.marks",
  attendance: "reports.field.attendance",
  assignments: "reports.field.assignments",
};

export function ReportFields({
  values,
  onChange,
  errors,
  formMessage,
  formMessageId,
  disabled,
  studentField,
}: ReportFieldsProps) {
  const { t, behavior } = useReportText();
  const behaviorOptions = behaviors.map((b) => ({ value: b, label: behavior(b) }));
  const set = (key: keyof ReportFormValues, value: string) => {
    if (!disabled) onChange({ ...values, [key]: value });
  };
  // A number's own error, from what is typed now (so it goes once the field is put right or the
  // form is cleared), wins over the form's message for it.
  const live = (key: string) =>
    (numericFields as readonly string[]).includes(key)
      ? numberError(key as NumericField, values[key as NumericField], (problem) =>
          t("reports.field.notWholeNumber", { ...problem }),
        )
      : undefined;
  const errorOf = (key: string) =>
    live(key) ?? (errors[key] && errors[key] !== formMessage ? errors[key] : undefined);
  const invalid = (key: string) =>
    errors[key] && !live(key)
      ? {
          className: "field-invalid",
          "aria-invalid": true as const,
          ...(errorOf(key) ? {} : { "aria-describedby": formMessageId }),
        }
      : {};

  // What every field of the form has: its name and value, its error.
  const common = (key: keyof ReportFormValues) => ({
    name: key,
    value: values[key],
    error: errorOf(key),
    ...invalid(key),
  });
  const text = (key: "studentName" | "course" | "feedback") => ({
    ...common(key),
    readOnly: disabled,
    autoComplete: "off",
    maxLength: reportLimits[key].max,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  return (
    <div className="report-fields">
      {studentField ? (
        studentField({
          error: errorOf("studentName"),
          invalid: Boolean(errors.studentName),
          describedBy: errors.studentName && !errorOf("studentName") ? formMessageId : undefined,
          readOnly: disabled,
        })
      ) : (
        <Field label={t("reports.field.studentName")} {...text("studentName")} />
      )}
      <Field label={t("csv.reports.course")} {...text("course")} />
      <div className="report-numbers">
        {numericFields.map((key) => (
          <Field
            key={key}
            label={t(numericLabels[key])}
            inputMode="numeric"
            autoComplete="off"
            hint={t(numericHints[key], reportLimits[key])}
            {...common(key)}
            readOnly={disabled}
            onChange={(e) => set(key, e.target.value)}
          />
        ))}
      </div>
      <Select
        label={t("csv.reports.behavior")}
        placeholder={t("reports.field.behaviorPlaceholder")}
        options={behaviorOptions}
        {...common("behavior")}
        onChange={(e) => set("behavior", e.target.value)}
        aria-disabled={disabled || undefined}
      />
      <TextArea label={t("csv.reports.feedback")} rows={4} {...text("feedback")} />
    </div>
  );
}
