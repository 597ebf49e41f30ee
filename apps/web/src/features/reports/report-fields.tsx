import { behaviors, reportLimits } from "@gradecast/contract/reports";
import { useId } from "react";
import { Field } from "../../components/field.tsx";
import { Select } from "../../components/select.tsx";
import type { ReportFormValues } from "./api.ts";
import { masked, type NumericField } from "./form.ts";

// The fields of a student report, shared by the Teacher Input form and the edit dialog. The
// numeric fields apply the input masks (a keystroke that breaks them changes nothing). A field's
// error is written beside it unless it is the form's own message, which is shown once.

export interface ReportFieldsProps {
  values: ReportFormValues;
  onChange: (next: ReportFormValues) => void;
  errors: Record<string, string>;
  /** The form-level message; a field whose error equals it is only marked invalid. */
  formMessage: string | null;
  formMessageId: string;
  /** While saving: read-only, not disabled, which would blur the field being typed in. */
  disabled?: boolean;
}

const behaviorOptions = behaviors.map((b) => ({ value: b, label: b }));

const numericHints: Record<NumericField, string> = {
  marks: "A whole number from 0 to 100.",
  attendance: "A percentage from 0 to 100.",
  assignments: "Assignments handed in, from 0 to 6.",
};

const labels: Record<NumericField, string> = {
  marks: "Marks",
  attendance: "Attendance",
  assignments: "Assignments",
};

export function ReportFields({
  values,
  onChange,
  errors,
  formMessage,
  formMessageId,
  disabled,
}: ReportFieldsProps) {
  const feedbackId = `feedback${useId()}`;
  const set = (key: keyof ReportFormValues, value: string) => {
    if (!disabled) onChange({ ...values, [key]: value });
  };
  const errorOf = (key: string) =>
    errors[key] && errors[key] !== formMessage ? errors[key] : undefined;
  const invalid = (key: string) =>
    errors[key]
      ? {
          className: "field-invalid",
          "aria-invalid": true as const,
          ...(errorOf(key) ? {} : { "aria-describedby": formMessageId }),
        }
      : {};

  const feedbackError = errorOf("feedback");
  return (
    <div className="report-fields">
      <Field
        label="Student name"
        name="studentName"
        autoComplete="off"
        maxLength={reportLimits.studentName.max}
        value={values.studentName}
        onChange={(e) => set("studentName", e.target.value)}
        error={errorOf("studentName")}
        readOnly={disabled}
        {...invalid("studentName")}
      />
      <Field
        label="Course"
        name="course"
        autoComplete="off"
        maxLength={reportLimits.course.max}
        value={values.course}
        onChange={(e) => set("course", e.target.value)}
        error={errorOf("course")}
        readOnly={disabled}
        {...invalid("course")}
      />
      <div className="report-numbers">
        {(["marks", "attendance", "assignments"] as const).map((key) => (
          <Field
            key={key}
            label={labels[key]}
            name={key}
            inputMode="numeric"
            autoComplete="off"
            hint={numericHints[key]}
            maxLength={reportLimits[key].digits}
            value={values[key]}
            onChange={(e) => set(key, masked(key, values[key], e.target.value))}
            error={errorOf(key)}
            readOnly={disabled}
            {...invalid(key)}
          />
        ))}
      </div>
      <Select
        label="Behavior"
        name="behavior"
        placeholder="Select behavior"
        options={behaviorOptions}
        value={values.behavior}
        onChange={(e) => set("behavior", e.target.value)}
        error={errorOf("behavior")}
        aria-disabled={disabled || undefined}
        {...invalid("behavior")}
      />
      <div className={["field", errors.feedback ? "field-invalid" : ""].filter(Boolean).join(" ")}>
        <label className="field-label" htmlFor={feedbackId}>
          Feedback
        </label>
        <textarea
          id={feedbackId}
          name="feedback"
          className="input report-feedback"
          rows={4}
          maxLength={reportLimits.feedback.max}
          value={values.feedback}
          onChange={(e) => set("feedback", e.target.value)}
          readOnly={disabled}
          aria-invalid={errors.feedback ? true : undefined}
          aria-describedby={
            feedbackError ? `${feedbackId}-error` : errors.feedback ? formMessageId : undefined
          }
        />
        {feedbackError ? (
          <p className="field-error" id={`${feedbackId}-error`}>
            {feedbackError}
          </p>
        ) : null}
      </div>
    </div>
  );
}
