import { formatDayTime } from "@gradecast/contract/dates";
import {
  type RecordCell,
  type RecordField,
  recordFieldLabels,
  recordMessages,
  satTexts,
} from "@gradecast/contract/school-record";
import { draftKey } from "../../api/device-draft.ts";

// The gradebook's cells as text: what a value looks like in a cell, what a typed text sends,
// and the values typed but not saved yet, kept on this device until the server takes them.

/** The grid's short column headings, in the record's order. */
export const columnHeadings: Record<RecordField, string> = {
  G1: "G1",
  G2: "G2",
  absences: "Absences",
  failures: "Failures",
  G3: "G3",
  sat: "Sat the final",
};

/** The accessible name of a cell: "G1 for Amy Struggling". */
export const cellLabel = (field: RecordField, name: string) =>
  `${columnHeadings[field]} for ${name}`;

export function valueText(value: RecordCell["value"] | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/**
 * What a typed text sends: a blank clears the value, a number is sent as typed (the server
 * checks its range and says why it refuses), "yes"/"no" for Sat the final. Text that is no
 * value at all is refused here with the contract's message.
 */
export function parseCell(
  field: RecordField,
  text: string,
): { value: number | boolean | null } | { error: string } {
  const t = text.trim();
  if (t === "") return { value: null };
  if (field === "sat") {
    const lower = t.toLowerCase();
    if ((satTexts.yes as readonly string[]).includes(lower)) return { value: true };
    if ((satTexts.no as readonly string[]).includes(lower)) return { value: false };
    return { error: recordMessages.satValue };
  }
  const n = Number(t.replace(",", "."));
  if (!Number.isFinite(n)) return { error: recordMessages.valueRange(field) };
  return { value: n };
}

/** "Set by Ms Reis on 20 Nov 2026, 10:00": who set a value and when. */
export function setByText(cell: RecordCell | null): string {
  if (!cell) return "Not set yet.";
  return `${cell.value === null ? "Cleared" : "Set"} by ${cell.setBy.name} on ${formatDayTime(cell.setAt)}.`;
}

export const fieldLabel = (field: RecordField) => recordFieldLabels[field];

/** Splits a block copied from a spreadsheet: rows by newline, cells by tab. */
export function pastedBlock(text: string): string[][] {
  const rows = text.replace(/\r\n?/g, "\n").split("\n");
  if (rows.length > 1 && rows[rows.length - 1] === "") rows.pop();
  return rows.map((r) => r.split("\t"));
}

/** The cells typed and not saved yet, by `${studentId}:${field}`, per class. */
export type Unsaved = Record<string, string>;

const storeKey = (userId: string) => draftKey("gradebook", userId);

export function loadUnsaved(userId: string, classId: string): Unsaved {
  try {
    const all = JSON.parse(localStorage.getItem(storeKey(userId)) ?? "{}") as Record<
      string,
      unknown
    >;
    const mine = all[classId];
    if (!mine || typeof mine !== "object") return {};
    return Object.fromEntries(
      Object.entries(mine as Record<string, unknown>).filter(
        (e): e is [string, string] => typeof e[1] === "string" && e[1].length <= 20,
      ),
    );
  } catch {
    return {};
  }
}

export function saveUnsaved(userId: string, classId: string, cells: Unsaved): void {
  try {
    const all = JSON.parse(localStorage.getItem(storeKey(userId)) ?? "{}") as Record<
      string,
      unknown
    >;
    if (Object.keys(cells).length === 0) delete all[classId];
    else all[classId] = cells;
    if (Object.keys(all).length === 0) localStorage.removeItem(storeKey(userId));
    else localStorage.setItem(storeKey(userId), JSON.stringify(all));
  } catch {
    // Storage refused: the values stay on screen as long as the page.
  }
}
