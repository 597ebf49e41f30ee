import { privacyNoticeVersion } from "@gradecast/contract/privacy";
import { questionnaireSchema } from "@gradecast/contract/questionnaire";
import { strToU8, zipSync } from "fflate";
import { settleAlerts } from "../alerts/backlog.ts";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { bom, type CsvFormat, csvRow, englishCsv } from "../csv/csv.ts";
import { notFound } from "../domain-errors.ts";
import { explain } from "../prediction/service.ts";
import type { Services } from "../services.ts";
import { rowsAbout } from "./registry.ts";

// GET /api/me/export (issue 31): everything the registry says is held about the caller, as a
// ZIP with one JSON and one CSV file per table and link, a README, and the explanation of each
// prediction the current model can explain again. What a teacher or an admin authored about
// students is listed without its content (which is the students' data, not theirs): see
// docs/decisions/0021-data-rights.md.

function cell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function toCsv(rows: Record<string, unknown>[], format: CsvFormat): string {
  const first = rows[0];
  if (!first) return "";
  // The tables' own column names: the JSON beside each file uses the same ones.
  const columns = Object.keys(first);
  return (
    bom +
    csvRow(columns, format) +
    rows
      .map((r) =>
        csvRow(
          columns.map((c) => cell(r[c])),
          format,
        ),
      )
      .join("")
  );
}

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" && /^[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

export async function exportMine(
  services: Services,
  actor: Actor,
  format: CsvFormat = englishCsv,
): Promise<{ zip: Uint8Array; fileName: string }> {
  const user = await services.db
    .selectFrom("users")
    .select(["id", "email", "name"])
    .where("id", "=", actor.user.id)
    .executeTakeFirst();
  if (!user) throw notFound();
  // Every alert of a prediction already answered is in the export.
  await settleAlerts(services.db);
  const sets = await rowsAbout(services.db, user);
  const files: Record<string, Uint8Array> = {};
  const index: { file: string; title: string; purpose: string; rows: number }[] = [];
  for (const set of sets) {
    const rows = set.rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)])),
    );
    files[`${set.name}.json`] = strToU8(JSON.stringify(rows, null, 2));
    files[`${set.name}.csv`] = strToU8(toCsv(set.rows, format));
    index.push({
      file: set.name,
      title: set.entry.title,
      purpose: set.entry.purpose,
      rows: rows.length,
    });
  }
  // The reasons behind each prediction, recomputed as the prediction screen does.
  const predictions = sets.find((s) => s.entry.table === "predictions")?.rows ?? [];
  const explanations = predictions.flatMap((p) => {
    if (p.model_version !== services.model.version) return [];
    const inputs = typeof p.inputs === "string" ? JSON.parse(p.inputs) : p.inputs;
    const answers = questionnaireSchema.safeParse(inputs);
    if (!answers.success) return [];
    const result = explain(services.model, answers.data);
    return [
      {
        predictionId: p.id,
        prediction: result.prediction,
        interval: result.interval,
        baseValue: result.baseValue,
        contributions: result.contributions,
      },
    ];
  });
  files["prediction-explanations.json"] = strToU8(JSON.stringify(explanations, null, 2));
  const now = services.now();
  files["README.txt"] = strToU8(
    [
      `Everything Gradecast holds about ${user.email}, exported ${now.toISOString()}.`,
      `Privacy notice version ${privacyNoticeVersion}: what each file is, why it is kept and who sees it is at /privacy.`,
      "Each table is here as JSON and as CSV (the same rows). Files named table.column hold the rows",
      "where that column names you (for example audit_log.target: entries about your account).",
      "",
      ...index.map((i) => `${i.file}: ${i.title} (${i.rows} rows). ${i.purpose}.`),
      "prediction-explanations: the reasons behind each prediction the current model made.",
      "",
    ].join("\r\n"),
  );
  const zip = zipSync(files, { level: 6, mtime: now });
  await audit(services.db, { ...who(actor, actor.user.id), action: "privacy.exported" });
  return { zip, fileName: `gradecast-export-${now.toISOString().slice(0, 10)}.zip` };
}
