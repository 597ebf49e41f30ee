import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearReportDraft, loadReportDraft, saveReportDraft } from "./draft.ts";
import { emptyReport } from "./form.ts";

// The teacher form's draft in node: localStorage is a Map.
let store: Map<string, string>;

const typed = {
  studentName: "Ana Souza",
  course: "Maths",
  marks: "87",
  attendance: "92",
  assignments: "5",
  behavior: "Good",
  feedback: "Steady work.",
};

beforeEach(() => {
  store = new Map();
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("report draft", () => {
  it("gives back what was typed, for the same user only", () => {
    saveReportDraft("teacher-a", typed);
    expect(loadReportDraft("teacher-a")).toEqual(typed);
    expect(loadReportDraft("teacher-b")).toEqual(emptyReport);
  });

  it("keeps a half-filled form", () => {
    saveReportDraft("teacher-a", { ...emptyReport, course: "Physics", marks: "4" });
    expect(loadReportDraft("teacher-a")).toEqual({ ...emptyReport, course: "Physics", marks: "4" });
  });

  it("is stored under the gradecast: prefix, which logout forgets", () => {
    saveReportDraft("teacher-a", typed);
    expect([...store.keys()]).toEqual(["gradecast:report-draft:teacher-a"]);
  });

  it("removes the entry when the form is empty or the draft is cleared", () => {
    saveReportDraft("teacher-a", typed);
    saveReportDraft("teacher-a", emptyReport);
    expect(store.size).toBe(0);
    saveReportDraft("teacher-a", typed);
    clearReportDraft("teacher-a");
    expect(store.size).toBe(0);
    expect(loadReportDraft("teacher-a")).toEqual(emptyReport);
  });

  it("keeps numbers as typed, out of range too, and drops values the form could not have produced", () => {
    store.set(
      "gradecast:report-draft:teacher-a",
      JSON.stringify({
        studentName: 42,
        course: "x".repeat(150),
        marks: "101",
        attendance: "9".repeat(41),
        assignments: "6",
        behavior: "Great",
        feedback: "ok",
        extra: "ignored",
      }),
    );
    expect(loadReportDraft("teacher-a")).toEqual({
      ...emptyReport,
      course: "x".repeat(100),
      marks: "101",
      assignments: "6",
      feedback: "ok",
    });
  });

  it("starts empty when the stored text is not a draft", () => {
    store.set("gradecast:report-draft:teacher-a", "{not json");
    expect(loadReportDraft("teacher-a")).toEqual(emptyReport);
    store.set("gradecast:report-draft:teacher-a", '"a string"');
    expect(loadReportDraft("teacher-a")).toEqual(emptyReport);
  });

  it("lasts as long as the page when storage refuses it", () => {
    vi.stubGlobal("localStorage", {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    });
    expect(() => saveReportDraft("teacher-a", typed)).not.toThrow();
    expect(() => clearReportDraft("teacher-a")).not.toThrow();
    expect(loadReportDraft("teacher-a")).toEqual(emptyReport);
  });
});
