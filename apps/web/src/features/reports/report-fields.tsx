import { behaviors, reportLimits } from "@gradecast/contract/reports";
import { type ClipboardEvent, type ReactNode, useState } from "react";
import { Field, TextArea } from "../../components/field.tsx";
import { Select } from "../../components/select.tsx";
import type { ReportFormValues } from "./api.ts";
import {
  afterPaste,
  masked,
  maskRule,
  type NumericField,
  numericFields,
  pasteNotice,
} from "./form.ts";

// The fields of a student report, shared by the Teacher Input form and the edit dialog. The
// numeric fields apply the input masks of SPEC.md section 5, and never silently: a keystroke a
// mask refuses changes nothing and the rule appears beside the field; a paste that breaks it is
// refused whole with the rule (never cut down to what fits, which turned 1000 into 100). A
// field's error is written beside it unless it is the form's own message, which is shown once.

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
  studentField,
}: ReportFieldsProps) {
  // The rule last refused on each numeric field; cleared when the field is next focused or emptied.
  const [notices, setNotices] = useState<Partial<Record<NumericField, string>>>({});
  const notify = (key: NumericField, text: string | undefined) =>
    setNotices((n) => (n[key] === text ? n : { ...n, [key]: text }));
  const onNumber = (key: NumericField, typed: string) => {
    const next = masked(key, values[key], typed);
    if (next !== typed) notify(key, maskRule(key));
    else if (typed === "") notify(key, undefined);
    set(key, next);
  };
  const onPaste = (key: NumericField, e: ClipboardEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const result = afterPaste(
      key,
      input.value,
      e.clipboardData.getData("text"),
      input.selectionStart ?? input.value.length,
      input.selectionEnd ?? input.value.length,
    );
    if (result === null) {
      e.preventDefault();
      notify(key, pasteNotice(key));
    }
  };
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
        <Field label="Student name" {...text("studentName")} />
      )}
      <Field label="Course" {...text("course")} />
      <div className="report-numbers">
        {numericFields.map((key) => (
          <Field
            key={key}
            label={labels[key]}
            inputMode="numeric"
            autoComplete="off"
            hint={
              <>
                {numericHints[key]}{" "}
                {/* Always present, so that screen readers announce a refusal as it appears. */}
                <span className="mask-notice" role="status">
                  {notices[key] ?? ""}
                </span>
              </>
            }
            {...common(key)}
            readOnly={disabled}
            onChange={(e) => onNumber(key, e.target.value)}
            onPaste={(e) => onPaste(key, e)}
            onFocus={() => notify(key, undefined)}
          />
        ))}
      </div>
      <Select
        label="Behavior"
        placeholder="Select behavior"
        options={behaviorOptions}
        {...common("behavior")}
        onChange={(e) => set("behavior", e.target.value)}
        aria-disabled={disabled || undefined}
      />
      <TextArea label="Feedback" rows={4} {...text("feedback")} />
    </div>
  );
}
