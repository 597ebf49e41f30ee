import {
  type Evaluation,
  type EvaluationGroup,
  type EvaluationSetup,
  evaluationCsvColumns,
  evaluationMessages,
  evaluationSetups,
  minGroupSize,
  type SetupEvaluation,
} from "@gradecast/contract/evaluation";
import {
  ageBand,
  bootstrapFigures,
  calibration,
  expectedForMix,
  expectedFromEvaluation,
  figuresOf,
  MEASURES,
  resamplesFor,
  type ScoredOutcome,
  worseThanExpected,
} from "@gradecast/model";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { classAccess } from "../classes/policy.ts";
import { listClasses } from "../classes/service.ts";
import { bom, type CsvFormat, csvHeaderRow, csvRow, englishCsv } from "../csv/csv.ts";
import { type PredictionBeforeOutcome, predictionsBeforeOutcomes } from "../db/predictions.ts";
import { outcomesFingerprint, outcomesOf, type RecordedOutcome } from "../db/school-records.ts";
import type { Services } from "../services.ts";

// How the model did for this school (issue 29). The outcomes in the caller's scope (an admin:
// every class or one; a teacher: the classes they teach or one of them, another class 404 by
// the class policy), each against the predictions made for that class before it was recorded,
// newest per setup; scored by the model package's pure functions beside the model card's
// cross-validated figures.

/** The bootstrap's seed: the same rows always give the same intervals. */
const SEED = 29;

interface Scope {
  classes: { id: string; name: string; subject: "mat" | "por" }[];
  classId: string | null;
  /** Undefined: every class (an admin without classId). */
  classIds: string[] | undefined;
}

async function scopeOf(services: Services, actor: Actor, classId: string | undefined) {
  const views = await listClasses(services, actor);
  const classes = views.map((c) => ({ id: c.id, name: c.name, subject: c.subject }));
  if (classId !== undefined) {
    await classAccess(services, actor, classId, "manage");
    return { classes, classId, classIds: [classId] } satisfies Scope;
  }
  const all = actor.user.role === "admin";
  return { classes, classId: null, classIds: all ? undefined : classes.map((c) => c.id) };
}

interface Paired {
  outcome: RecordedOutcome;
  prediction: PredictionBeforeOutcome;
}

async function pairedRows(services: Services, scope: Scope) {
  const outcomes = await outcomesOf(services.db, scope.classIds);
  const predictions = await predictionsBeforeOutcomes(services.db, outcomes);
  const byKey = new Map(outcomes.map((o) => [`${o.classId}:${o.studentId}`, o]));
  const paired: Paired[] = [];
  for (const p of predictions) {
    const outcome = byKey.get(`${p.classId}:${p.studentId}`);
    if (outcome) paired.push({ outcome, prediction: p });
  }
  return { outcomes, paired };
}

const scored = ({ outcome, prediction: p }: Paired): ScoredOutcome => ({
  score: p.score,
  scoreIfSits: p.scoreIfSits,
  risk: p.noFinalScoreRisk,
  low: p.intervalLow,
  high: p.intervalHigh,
  sat: outcome.sat,
  g3: outcome.g3,
});

function groupsOf(rows: Paired[]): { shown: EvaluationGroup[]; hidden: number } {
  const groups = new Map<
    string,
    { kind: EvaluationGroup["kind"]; label: string; rows: Paired[] }
  >();
  const add = (kind: EvaluationGroup["kind"], label: string | null, row: Paired) => {
    if (label === null) return;
    const key = `${kind}:${label}`;
    const g = groups.get(key) ?? { kind, label, rows: [] };
    g.rows.push(row);
    groups.set(key, g);
  };
  for (const row of rows) {
    const p = row.prediction;
    add("version", p.modelVersion, row);
    add("class", row.outcome.className, row);
    add("sex", p.sex === "F" ? "Female" : p.sex === "M" ? "Male" : null, row);
    add("age", ageBand(p.age), row);
    add("address", p.address === "U" ? "Urban" : p.address === "R" ? "Rural" : null, row);
  }
  const shown: EvaluationGroup[] = [];
  let hidden = 0;
  for (const g of groups.values()) {
    // Too few to say anything, and a group of one or two names its students.
    if (g.rows.length < minGroupSize) {
      hidden++;
      continue;
    }
    const s = g.rows.map(scored);
    const f = figuresOf(s);
    shown.push({
      kind: g.kind,
      label: g.label,
      n: s.length,
      sat: s.filter((o) => o.sat).length,
      rmse: f.rmse,
      accuracy: f.accuracy,
      coverage: f.coverage,
    });
  }
  const order = ["version", "class", "sex", "age", "address"];
  shown.sort(
    (a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.label.localeCompare(b.label),
  );
  return { shown, hidden };
}

function setupEvaluation(
  services: Services,
  setup: EvaluationSetup,
  rows: Paired[],
  resamples: number,
): SetupEvaluation {
  const s = rows.map(scored);
  const figures = figuresOf(s);
  const intervals = bootstrapFigures(s, { resamples, seed: SEED });
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.outcome.subject, (counts.get(r.outcome.subject) ?? 0) + 1);
  const expected = expectedForMix(expectedFromEvaluation(services.model.evaluation), setup, counts);
  const { shown, hidden } = groupsOf(rows);
  return {
    setup,
    n: s.length,
    sat: s.filter((o) => o.sat).length,
    figures: MEASURES.map((measure) => {
      const value = figures[measure];
      const worse =
        value !== null && worseThanExpected(measure, intervals[measure], expected[measure]);
      return {
        measure,
        value,
        interval: intervals[measure],
        expected: expected[measure],
        worse,
        note:
          worse && value !== null && expected[measure] !== null
            ? evaluationMessages.worse(measure, value, expected[measure] as number)
            : null,
      };
    }),
    calibration: calibration(s),
    groups: shown,
    hiddenGroups: hidden,
  };
}

/** The figures of one scope, kept while its outcomes are unchanged (see `outcomesFingerprint`). */
type Scored = Omit<Evaluation, "classes" | "classId">;
const cacheSize = 64;
const cached = new WeakMap<Services["db"], Map<string, { fingerprint: string; scored: Scored }>>();

async function scoredFor(services: Services, scope: Scope): Promise<Scored> {
  const key = `${services.model.version}:${scope.classIds ? [...scope.classIds].sort().join(",") : "*"}`;
  const fingerprint = await outcomesFingerprint(services.db, scope.classIds);
  let byScope = cached.get(services.db);
  if (!byScope) {
    byScope = new Map();
    cached.set(services.db, byScope);
  }
  const hit = byScope.get(key);
  if (hit && hit.fingerprint === fingerprint) return hit.scored;
  const { outcomes, paired } = await pairedRows(services, scope);
  const bySetup = new Map<EvaluationSetup, Paired[]>(evaluationSetups.map((s) => [s, []]));
  for (const row of paired) bySetup.get(row.prediction.setup)?.push(row);
  const largest = Math.max(0, ...[...bySetup.values()].map((r) => r.length));
  const resamples = resamplesFor(largest);
  const scored: Scored = {
    outcomes: outcomes.length,
    resamples,
    setups: evaluationSetups
      .map((setup) => setupEvaluation(services, setup, bySetup.get(setup) ?? [], resamples))
      .filter((s) => s.n > 0),
  };
  // Scoring 10,000 outcomes takes about a second of CPU (the bootstrap above all): a page
  // opened again shows the same figures until an outcome changes.
  byScope.delete(key);
  byScope.set(key, { fingerprint, scored });
  if (byScope.size > cacheSize) byScope.delete(byScope.keys().next().value as string);
  return scored;
}

export async function evaluation(
  services: Services,
  actor: Actor,
  classId: string | undefined,
): Promise<Evaluation> {
  const scope = await scopeOf(services, actor, classId);
  return { classes: scope.classes, classId: scope.classId, ...(await scoredFor(services, scope)) };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Outcomes against predictions as CSV, one row per student and setup; students are named only
 * by `pseudonym` (a keyed digest of their id, the same in every export). The export is audited.
 */
export async function evaluationCsv(
  services: Services,
  actor: Actor,
  classId: string | undefined,
  pseudonym: (studentId: string) => string,
  format: CsvFormat = englishCsv,
): Promise<string> {
  const scope = await scopeOf(services, actor, classId);
  const { paired } = await pairedRows(services, scope);
  const order = (s: string) => evaluationSetups.indexOf(s as EvaluationSetup);
  paired.sort(
    (a, b) =>
      a.outcome.className.localeCompare(b.outcome.className) ||
      a.outcome.classId.localeCompare(b.outcome.classId) ||
      pseudonym(a.outcome.studentId).localeCompare(pseudonym(b.outcome.studentId)) ||
      order(a.prediction.setup) - order(b.prediction.setup),
  );
  await audit(services.db, {
    ...who(actor, scope.classId),
    action: "evaluation.exported",
    details: { rows: paired.length, classes: scope.classId ? 1 : scope.classes.length },
  });
  const lines = [
    csvHeaderRow(evaluationCsvColumns, format),
    ...paired.map(({ outcome: o, prediction: p }) =>
      csvRow(
        [
          pseudonym(o.studentId),
          o.className,
          o.subject,
          p.setup,
          round(p.score),
          round(p.scoreIfSits),
          round(p.noFinalScoreRisk),
          round(p.intervalLow),
          round(p.intervalHigh),
          o.g3,
          o.sat ? "yes" : "no",
          p.createdAt.toISOString(),
          o.recordedAt.toISOString(),
        ],
        format,
      ),
    ),
  ];
  return `${bom}${lines.join("")}`;
}
