import { questionnaireSchema } from "@gradecast/contract/questionnaire";
import {
  newestIsOtherModel,
  newestOfClass,
  newestPredictionsOf,
  type StoredPrediction,
  unclassedOfOtherModel,
} from "../db/predictions.ts";
import { classesWithStudents, classRecordInputs } from "../db/school-records.ts";
import { enqueueJob, type JobContext, type JobHandler, jobKinds } from "../jobs/queue.ts";
import { withSchool } from "../students/subject.ts";
import {
  classPlan,
  isStale,
  ownValuesOf,
  type PredictingServices,
  type PredictionPlan,
  runPlan,
} from "./service.ts";

type Services = PredictingServices;

// Recomputing predictions (issue 29), the handler of "predictions.recompute": after a record
// value or the model changed, each affected student gets a new prediction made by the school
// (`made_by` 'school'): rows are never updated, the evaluation scores the ones made before an
// outcome as they were. A run reads the current state, so running it again (a retry, a second
// request while it ran) only makes the predictions still stale: it is safe from the start.

/** Predictions made at once: one group-commit insert each. */
const chunk = 64;

/**
 * The student's newest own answers: their newest prediction's inputs with their own values
 * restored where a record replaced them. Undefined when those answers no longer parse (a
 * questionnaire of an older release): the student is asked again rather than guessed.
 */
function ownAnswers(services: Services, newest: StoredPrediction) {
  const restored = {
    ...(newest.inputs as Record<string, unknown>),
    ...(newest.ownValues ?? {}),
  };
  const parsed = questionnaireSchema.safeParse(restored);
  if (!parsed.success) return undefined;
  return withSchool(services.config.modelSchool, parsed.data);
}

/** The plans of one class's stale predictions. */
async function classWork(services: Services, classId: string): Promise<[string, PredictionPlan][]> {
  const db = services.db;
  const record = await classRecordInputs(db, classId);
  if (!record) return [];
  const ids = [...record.students.keys()];
  const [ofClass, newest] = await Promise.all([
    newestOfClass(db, classId, ids),
    newestPredictionsOf(db, ids),
  ]);
  const work: [string, PredictionPlan][] = [];
  for (const [studentId, inputs] of record.students) {
    const latest = newest.get(studentId);
    // A student who never asked gets no prediction made for them.
    if (!latest) continue;
    const current = ofClass.get(studentId);
    if (current && !isStale(current, inputs, services.model.version)) continue;
    const answers = ownAnswers(services, latest);
    if (!answers) continue;
    work.push([studentId, classPlan(answers, { classId, subject: record.subject, ...inputs })]);
  }
  return work;
}

/** The plans of the students in no class whose newest prediction another model made. */
async function unclassedWork(services: Services): Promise<[string, PredictionPlan][]> {
  const ids = await unclassedOfOtherModel(services.db, services.model.version);
  const newest = await newestPredictionsOf(services.db, ids);
  const work: [string, PredictionPlan][] = [];
  for (const [studentId, latest] of newest) {
    const answers = ownAnswers(services, latest);
    if (!answers) continue;
    work.push([
      studentId,
      {
        inputs: answers,
        sources: null,
        ownValues: ownValuesOf(answers),
        classId: null,
        recordVersion: null,
      },
    ]);
  }
  return work;
}

/** Makes the predictions in chunks; false when the instance began stopping. */
async function run(
  services: Services,
  context: JobContext,
  work: [string, PredictionPlan][],
  counted: { done: number; total: number },
): Promise<boolean> {
  for (let i = 0; i < work.length; i += chunk) {
    if (context.stopping()) return false;
    await Promise.all(
      work
        .slice(i, i + chunk)
        .map(([studentId, plan]) => runPlan(services, studentId, plan, "school", true)),
    );
  }
  counted.done += 1;
  await context.progress(counted.done, counted.total);
  return true;
}

/**
 * The handler: key = a class id, that class's stale predictions; key "all" (after a model
 * change), every class's, then the students in no class. Progress counts classes (and the
 * students in no class as one step).
 */
export function recomputePredictions(services: Services): JobHandler {
  return async (context) => {
    const { key } = context.job;
    if (key !== "all") {
      const counted = { done: 0, total: 1 };
      await run(services, context, await classWork(services, key), counted);
      return;
    }
    const classIds = await classesWithStudents(services.db);
    const counted = { done: 0, total: classIds.length + 1 };
    await context.progress(0, counted.total);
    for (const classId of classIds) {
      if (!(await run(services, context, await classWork(services, classId), counted))) return;
    }
    await run(services, context, await unclassedWork(services), counted);
  };
}

/**
 * At start: when the newest stored prediction was made by another model than the one loaded,
 * every stored prediction is stale; their recomputation is asked for (once: one waiting job).
 */
export async function recomputeAfterModelChange(services: Services): Promise<void> {
  if (!(await newestIsOtherModel(services.db, services.model.version))) return;
  await enqueueJob(services.db, { kind: jobKinds.recomputePredictions, key: "all" });
}
