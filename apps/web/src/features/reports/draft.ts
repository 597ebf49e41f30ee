import { behaviors, reportLimits } from "@gradecast/contract/reports";
import { deviceDraft } from "../../api/device-draft.ts";
import type { ReportFormValues } from "./api.ts";
import { emptyReport, numericFields } from "./form.ts";

// The teacher form's draft on this device (api/device-draft.ts): numbers as typed (even out of
// range: the form marks them, it never changes them), the behaviour from its list, texts cut to
// their limits.

/** Longer than anything a teacher types in a number field: such a stored value is dropped. */
const numberDraftMax = 40;

const textLimits: Partial<Record<keyof ReportFormValues, number>> = {
  studentName: reportLimits.studentName.max,
  course: reportLimits.course.max,
  feedback: reportLimits.feedback.max,
};

const reportDraft = deviceDraft<ReportFormValues>(
  "report",
  () => ({ ...emptyReport }),
  (key, value) => {
    const numeric = numericFields.find((field) => field === key);
    if (numeric) return value.length <= numberDraftMax ? value : null;
    if (key === "behavior") return (behaviors as readonly string[]).includes(value) ? value : null;
    const max = textLimits[key];
    return max === undefined ? null : value.slice(0, max);
  },
);

export const loadReportDraft = reportDraft.load;
export const saveReportDraft = reportDraft.save;
export const clearReportDraft = reportDraft.clear;
