import type { Locale } from "@gradecast/contract/locale-tags";
import {
  type RecordCell,
  type RecordField,
  recordRanges,
  satTexts,
} from "@gradecast/contract/school-record";
import { draftKey } from "../../api/device-draft.ts";
import type { MessageValues } from "../../i18n/intl.tsx";
import { formatDateTime } from "../analytics/format.ts";

// The gradebook's cells as text: what a value looks like in a cell, what a typed text sends,
// and the values typed but not saved yet, kept on this device until the server takes them.
// Every text in the page's language (`t`: the page's formatMessage).

export type Translate = (id: string, values?: MessageValues) => string;

/** The grid's short column headings, in the record's order. */
export function columnHeading(t: Translate, field: RecordField): string {
  switch (field) {
    case "absences":
      return t("gradebook.column.absences");
    case "failures":
      return t("gradebook.column.failures");
    case "sat":
      return t("gradebook.column.sat");
    default:
      return field;
  }
}

const fieldKeys: Record<RecordField, string> = {
  G1: "gradebook.field.G1",
  G2: "gradebook.field.G2",
  absences: "gradebook.field.absences",
  failures: "gradebook.field.failures",
  G3: "gradebook.field.G3",
  sat: "gradebook.field.sat",
};

/** How each value is named on the screen and in errors: "First period grade (G1)". */
export const fieldLabel = (t: Translate, field: RecordField) => t(fieldKeys[field]);

/** The accessible name of a cell: "G1 for Amy Struggling". */
export const cellLabel = (t: Translate, field: RecordField, name: string) =>
  t("gradebook.cellLabel", { column: columnHeading(t, field), name });

/** A value in a cell; yes or no in English without `t`. */
export function valueText(value: RecordCell["value"] | undefined, t?: Translate): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") {
    if (!t) return value ? "yes" : "no";
    return value ? t("gradebook.yes") : t("gradebook.no");
  }
  return String(value);
}

/**
 * What a typed text sends: a blank clears the value, a number is sent as typed (the server
 * checks its range and says why it refuses), "yes"/"no" (or "sim"/"não") for Sat the final.
 * Text that is no value at all is refused here with the contract's message.
 */
export function parseCell(
  t: Translate,
  field: RecordField,
  text: string,
): { value: number | boolean | null } | { error: string } {
  const typed = text.trim();
  if (typed === "") return { value: null };
  if (field === "sat") {
    const lower = typed.toLowerCase();
    if ((satTexts.yes as readonly string[]).includes(lower)) return { value: true };
    if ((satTexts.no as readonly string[]).includes(lower)) return { value: false };
    return { error: t("gradebook.error.sat") };
  }
  const n = Number(typed.replace(",", "."));
  if (!Number.isFinite(n)) {
    const { min, max } = recordRanges[field];
    return { error: t("gradebook.error.range", { field: fieldLabel(t, field), min, max }) };
  }
  return { value: n };
}

/** "Set by Ms Reis on 20 Nov 2026, 10:00": who set a value and when. */
export function setByText(t: Translate, locale: Locale, cell: RecordCell | null): string {
  if (!cell) return t("gradebook.notSetYet");
  const values = { name: cell.setBy.name, when: formatDateTime(cell.setAt, locale) };
  return cell.value === null ? t("gradebook.clearedBy", values) : t("gradebook.setBy", values);
}

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
