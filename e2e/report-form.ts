import type { Page } from "playwright-core";

// Reports as the tests file them: typed into Teacher Input's fields as a teacher types them, or
// sent in bulk by the signed-in page to fill the list. The tests differ in what they send and
// what they check after, not in the typing or the sending.

export interface ReportFields {
  /** Left as it is when absent (a name already typed or picked from a class). */
  studentName?: string;
  course: string;
  marks: string;
  attendance: string;
  assignments: string;
  behavior: string;
  feedback: string;
}

export async function fillReportForm(page: Page, report: ReportFields) {
  if (report.studentName !== undefined) {
    await page.getByLabel("Student name").fill(report.studentName);
  }
  await page.getByLabel("Course").fill(report.course);
  await page.getByLabel("Marks", { exact: true }).fill(report.marks);
  await page.getByLabel("Attendance", { exact: true }).fill(report.attendance);
  await page.getByLabel("Assignments", { exact: true }).fill(report.assignments);
  await page.getByLabel("Behavior").selectOption(report.behavior);
  await page.getByLabel("Feedback").fill(report.feedback);
}

/** Files reports through the API with the page's own signed-in token, in order. */
export async function fileReports(page: Page, reports: Record<string, unknown>[]) {
  await page.evaluate(async (all) => {
    const headers = {
      authorization: `Bearer ${localStorage.getItem("token")}`,
      "content-type": "application/json",
    };
    for (const [i, report] of all.entries()) {
      const res = await fetch("/api/reports", {
        method: "POST",
        headers,
        body: JSON.stringify(report),
      });
      if (!res.ok) throw new Error(`report ${i + 1}: ${res.status}`);
    }
  }, reports);
}
