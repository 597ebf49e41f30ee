import type { ContestAnswer } from "@gradecast/contract/consent";
import { isId } from "@gradecast/contract/ids";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { saveContest } from "../db/consents.ts";
import { hasRow } from "../db/rows.ts";
import { notFound } from "../domain-errors.ts";
import type { Services } from "../services.ts";

// Human oversight (issue 31 part B): a student says why their own prediction is wrong; the text
// is kept with the prediction (one per prediction: saying it again replaces it) and shown to the
// teachers of the student's classes on the risk list. The audit log records that it was said,
// never what (the text is the student's own words about themselves).
export async function contestPrediction(
  services: Services,
  actor: Actor,
  predictionId: string,
  reason: string,
): Promise<ContestAnswer> {
  if (!isId(predictionId)) throw notFound();
  const own = await hasRow(services.db, "predictions", {
    id: predictionId,
    user_id: actor.user.id,
  });
  // Another's prediction is not found: its existence is not told.
  if (!own) throw notFound();
  const saved = await saveContest(services.db, {
    predictionId,
    studentId: actor.user.id,
    reason,
    now: services.now(),
  });
  await audit(services.db, {
    ...who(actor, actor.user.id),
    action: "prediction.contest",
    details: { predictionId },
  });
  return { predictionId, reason, createdAt: saved.createdAt.toISOString() };
}
