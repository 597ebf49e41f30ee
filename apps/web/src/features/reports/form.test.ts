import { messages } from "@gradecast/contract/messages";
import { describe, expect, it } from "vitest";
import { checkReport, emptyReport, numberError } from "./form.ts";

describe("a report's numbers as typed", () => {
  it("says what is wrong with a number out of range or not whole, and nothing of a right one", () => {
    expect(numberError("marks", "101")).toBe("“101” is not a whole number from 0 to 100.");
    expect(numberError("marks", "-5")).toBe("“-5” is not a whole number from 0 to 100.");
    expect(numberError("marks", "7.5")).toBe("“7.5” is not a whole number from 0 to 100.");
    expect(numberError("marks", "100.5")).toBe("“100.5” is not a whole number from 0 to 100.");
    expect(numberError("assignments", "7")).toBe("“7” is not a whole number from 0 to 6.");
    expect(numberError("marks", "100")).toBeUndefined();
    expect(numberError("marks", "0")).toBeUndefined();
    expect(numberError("marks", "")).toBeUndefined();
    // Pasted from a spreadsheet with a space: taken as 85.
    expect(numberError("marks", "85 ")).toBeUndefined();
    expect(numberError("attendance", " 85")).toBeUndefined();
  });

  it("refuses a form with a number out of range with the contract's one message", () => {
    const filled = {
      ...emptyReport,
      studentName: "Ana Lima",
      course: "Maths",
      marks: "101",
      attendance: "95",
      assignments: "5",
      behavior: "Good",
      feedback: "ok",
    };
    expect(checkReport(filled).message).toBe(messages.reportRange);
    expect(checkReport(filled).message).toBe(
      "Marks and Attendance must be between 0 and 100. Assignments must be between 0 and 6.",
    );
    expect(checkReport({ ...filled, marks: "85 " }).message).toBeNull();
  });
});
