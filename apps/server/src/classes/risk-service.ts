import {
  type ClassRisk,
  compareRisk,
  type InterventionNote,
  isAtRisk,
  type noteCreateSchema,
  type RiskItem,
  type RiskReason,
  riskCells,
  riskColumnsFor,
  riskMessages,
  riskReasonCount,
  type Sharing,
  type sharingPatchSchema,
  teacherReasons,
} from "@gradecast/contract/class-risk";
import { type Questionnaire, questionnaireSchema } from "@gradecast/contract/questionnaire";
import {
  differsFromRecord,
  type RecordInputKey,
  recordInputKeys,
} from "@gradecast/contract/school-record";
import { bandOf } from "@gradecast/contract/score";
import type { z } from "zod";
import { audit, who } from "../audit/audit.ts";
import { bom, type CsvFormat, csvHeaderRow, csvRow, englishCsv } from "../csv/csv.ts";
import { contestsOf } from "../db/consents.ts";
import {
  type ClassPredictions,
  latestPredictionsOfClass,
  type OwnValues,
  type RecordSources,
  type StoredPrediction,
} from "../db/predictions.ts";
import { classRecordInputs, type StudentRecordInputs } from "../db/school-records.ts";
import { riskWordsOf } from "../i18n/risk-words.ts";
import { enqueueJob, jobKinds } from "../jobs/queue.ts";
import { explain, isStale, overlayValues, ownValuesOf } from "../prediction/service.ts";
import type { Services } from "../services.ts";
import { aboutEnrolledStudent, type ClassAccess, classAccess } from "./policy.ts";
import * as classes from "./queries.ts";
import * as q from "./risk-queries.ts";
import type { Actor } from "./service.ts";

// The class risk list (issue 20): every enrolled student with their newest prediction, sorted
// by risk, with the reasons a teacher may see (the contract's privacy rule, `teacherReasons`),
// and, for the class's teachers only, the intervention notes of the class. Who reaches the
// class is decided by the class policy (policy.ts), the same rule as every class route (its
// teachers and admins; anybody else 404).

/**
 * Whether the caller reads the class's notes: the class's teachers do, an admin reaches every
 * class but reads no note (issue 20). The same relationship that writes them (verb `note`).
 */
const readsNotes = (access: ClassAccess) => access.relation === "teacher";

export async function classRisk(services: Services, actor: Actor, id: string): Promise<ClassRisk> {
  return buildRisk(services, await classAccess(services, actor, id, "manage"), actor);
}

async function buildRisk(
  services: Services,
  access: ClassAccess,
  viewer: Actor,
): Promise<ClassRisk> {
  const { record } = access;
  const withNotes = readsNotes(access);
  const db = services.db;
  const [students, latest, records, sharing, notes] = await Promise.all([
    classes.listStudents(db, record.id),
    latestPredictionsOfClass(db, record.id),
    classRecordInputs(db, record.id),
    // Sharing is with teachers (issue 26): an admin, who is none of them, sees what is shared
    // with nobody in particular, the school-record reasons.
    access.relation === "teacher"
      ? q.sharingStudents(db, record.id, viewer.user.id)
      : new Set<string>(),
    withNotes ? q.classNotes(db, record.id) : [],
  ]);
  const notesOf = new Map<string, InterventionNote[]>();
  for (const note of notes) {
    const list = notesOf.get(note.studentId) ?? [];
    list.push(note);
    notesOf.set(note.studentId, list);
  }
  // Contests reach the class's teachers alone, as the notes do: the student wrote to them.
  const contests = withNotes
    ? await contestsOf(
        db,
        [...latest.values()].flatMap((c) =>
          [c.ofClass, c.unclassed, c.other].flatMap((p) => (p ? [p.id] : [])),
        ),
      )
    : new Map<string, { reason: string; createdAt: Date }>();
  // The newest said about any of the student's predictions the list read (the one shown, or the
  // one they made in another class's subject at the same time).
  const contestOf = (found: ClassPredictions | undefined) => {
    const said = [found?.ofClass, found?.unclassed, found?.other]
      .flatMap((p) => (p && contests.has(p.id) ? [contests.get(p.id)!] : []))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    return said ? { reason: said.reason, createdAt: said.createdAt.toISOString() } : null;
  };
  let anyStale = false;
  const items = students.map((s): RiskItem => {
    const rec = records?.students.get(s.id) ?? noRecord;
    const { shown: p, newest } = pick(latest.get(s.id), rec);
    const shared = sharing.has(s.id);
    const base = {
      studentId: s.id,
      name: s.name,
      email: s.email,
      shared,
      notes: withNotes ? (notesOf.get(s.id) ?? []) : null,
      contest: contestOf(latest.get(s.id)),
    };
    if (!newest) {
      return {
        ...base,
        answered: false,
        answeredAt: null,
        ...noFigure,
        inputs: null,
        differs: false,
        predictedAt: null,
        updating: false,
      };
    }
    const own = ownOf(newest);
    const differs = differsFromRecord(own, rec.values);
    if (!p || isStale(p, rec, services.model.version)) {
      // Made from values older than the record, or by another model: no figure until the
      // recomputation makes a new one. The inputs shown are the ones it will use.
      anyStale = true;
      const next = overlayValues(own, rec.values);
      return {
        ...base,
        answered: true,
        answeredAt: newest.createdAt.toISOString(),
        ...noFigure,
        inputs: inputsOf(next.values, next.sources),
        differs,
        predictedAt: null,
        updating: true,
      };
    }
    // The explanation is recomputed from the stored answers, as the student's own screen does:
    // only while the model that made the prediction is the one in use, so reasons and figures
    // always belong together.
    let all: RiskReason[] | null = null;
    const answers = questionnaireSchema.safeParse(p.inputs);
    if (p.modelVersion === services.model.version && answers.success) {
      all = teacherReasons(explain(services.model, answers.data).contributions, shared);
    }
    return {
      ...base,
      answered: true,
      answeredAt: p.createdAt.toISOString(),
      prediction: p.score,
      interval: { low: p.intervalLow, high: p.intervalHigh },
      band: bandOf(p.score),
      noFinalScoreRisk: p.noFinalScoreRisk,
      scoreIfSits: p.scoreIfSits,
      modelSetup: p.modelSetup,
      atRisk: isAtRisk(p.score, p.noFinalScoreRisk),
      reasons: all ? all.slice(0, riskReasonCount) : null,
      explanation: all && shared ? all : null,
      inputs: inputsOf(ownValuesOf(p.inputs as Questionnaire), p.sources ?? {}),
      differs,
      predictedAt: p.createdAt.toISOString(),
      updating: false,
    };
  });
  items.sort(compareRisk);
  // One waiting job per class: asking again while it waits adds nothing.
  if (anyStale) {
    await enqueueJob(db, { kind: jobKinds.recomputePredictions, key: record.id, createdBy: null });
  }
  return {
    class: { id: record.id, name: record.name, subject: record.subject, year: record.year },
    counts: {
      students: items.length,
      answered: items.filter((i) => i.answered).length,
      atRisk: items.filter((i) => i.atRisk).length,
    },
    withNotes,
    items,
  };
}

/** A row the list shows no figure for: not answered yet, or waiting for its recomputation. */
const noFigure = {
  prediction: null,
  interval: null,
  band: null,
  noFinalScoreRisk: null,
  scoreIfSits: null,
  modelSetup: null,
  atRisk: false,
  reasons: null,
  explanation: null,
} as const;

const noRecord: StudentRecordInputs = {
  values: { G1: null, G2: null, absences: null, failures: null },
  version: 0,
};

/**
 * The prediction the list shows for a student, and their newest one of those it read. The
 * class's own counts; one made for no class in the class's subject counts while the class's
 * record holds no input for the student (it was made from the same answers the class would use).
 */
function pick(
  found: ClassPredictions | undefined,
  rec: StudentRecordInputs,
): { shown: StoredPrediction | undefined; newest: StoredPrediction | undefined } {
  if (!found) return { shown: undefined, newest: undefined };
  const newer = (a: StoredPrediction | undefined, b: StoredPrediction | undefined) =>
    !a ? b : !b ? a : a.createdAt >= b.createdAt ? a : b;
  const shown = rec.version === 0 ? newer(found.ofClass, found.unclassed) : found.ofClass;
  return { shown, newest: newer(newer(found.ofClass, found.unclassed), found.other) };
}

/** The student's own values: kept beside the prediction, or its inputs when none replaced them. */
function ownOf(p: StoredPrediction): OwnValues {
  return p.ownValues ?? ownValuesOf(p.inputs as Questionnaire);
}

function inputsOf(values: OwnValues, sources: RecordSources): NonNullable<RiskItem["inputs"]> {
  return Object.fromEntries(
    recordInputKeys.map((k: RecordInputKey) => [
      k,
      { value: values[k] ?? null, source: sources[k] ?? "student" },
    ]),
  ) as NonNullable<RiskItem["inputs"]>;
}

/** The same list as CSV, the screen's columns in the screen's order; the export is audited. */
export async function classRiskCsv(
  services: Services,
  actor: Actor,
  id: string,
  format: CsvFormat = englishCsv,
): Promise<{ csv: string; name: string }> {
  const access = await classAccess(services, actor, id, "manage");
  const { record } = access;
  const risk = await buildRisk(services, access, actor);
  await audit(services.db, {
    ...who(actor, id),
    action: "class.risk_exported",
    details: { students: risk.counts.students },
  });
  const lines = [
    csvHeaderRow(riskColumnsFor(risk.withNotes), format),
    ...risk.items.map((item) => csvRow(riskCells(item, riskWordsOf(format.locale)), format)),
  ];
  return { csv: `${bom}${lines.join("")}`, name: record.name };
}

/**
 * A note on a student of the class, by one of its teachers: `access` is the route's class
 * check with verb `note`, run once before the body is read. The audit entry says who wrote a note about whom in which class, never what it says:
 * admins read the audit log, and the notes are the class's teachers' alone.
 */
export const addNote = aboutEnrolledStudent<z.output<typeof noteCreateSchema>, InterventionNote>(
  riskMessages.notEnrolled,
  async (services, actor, id, studentId, input) => {
    return services.db.transaction().execute(async (tx) => {
      const note = await q.insertNote(tx, {
        classId: id,
        studentId,
        authorId: actor.user.id,
        authorName: actor.user.name,
        action: input.action,
        doneOn: input.doneOn,
        followUpOn: input.followUpOn ?? null,
      });
      await audit(tx, {
        ...who(actor, id),
        action: "class.note_added",
        details: { noteId: note.id, studentId },
      });
      return note;
    });
  },
);

export async function mySharing(services: Services, actor: Actor): Promise<Sharing> {
  const [row, teachers] = await Promise.all([
    q.findSharing(services.db, actor.user.id),
    q.teachersOfStudent(services.db, actor.user.id),
  ]);
  const person = ({ id, name }: { id: string; name: string }) => ({ id, name });
  return {
    shareExplanation: row?.shared ?? false,
    changedAt: row?.changedAt ?? null,
    sharedWith: teachers.filter((t) => t.shared).map(person),
    notSharedWith: teachers.filter((t) => !t.shared).map(person),
  };
}

/**
 * Turns sharing the full explanation on or off; a change is audited. On: with the teachers of
 * the student's classes now (sent again, it adds those who are new since). Off: with nobody.
 */
export async function setSharing(
  services: Services,
  actor: Actor,
  { shareExplanation }: z.output<typeof sharingPatchSchema>,
): Promise<Sharing> {
  const before = await mySharing(services, actor);
  const added = shareExplanation ? before.notSharedWith.map((t) => t.id) : [];
  if (before.shareExplanation === shareExplanation && added.length === 0) return before;
  await services.db.transaction().execute(async (tx) => {
    const now = services.now();
    if (before.shareExplanation !== shareExplanation) {
      await q.saveSharing(tx, actor.user.id, shareExplanation, now);
    }
    if (shareExplanation) await q.shareWithTeachers(tx, actor.user.id, added, now);
    else await q.unshareAll(tx, actor.user.id);
    await audit(tx, {
      ...who(actor, actor.user.id),
      action: shareExplanation ? "student.explanation_shared" : "student.explanation_unshared",
      ...(shareExplanation ? { details: { teacherIds: added } } : {}),
    });
  });
  return mySharing(services, actor);
}
