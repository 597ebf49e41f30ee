import { planDigests, sendOutbox } from "./alerts/digest.ts";
import { type JobHandler, jobKinds } from "./jobs/queue.ts";
import { trainModel } from "./model/training.ts";
import { invitationMailJob, oneRosterJobs } from "./oneroster/invitation-mail.ts";
import { recomputePredictions } from "./prediction/recompute.ts";
import { dailyPrivacyJob, retentionPurgeJob } from "./privacy/jobs.ts";
import { privacyJobs } from "./privacy/service.ts";
import type { Services } from "./services.ts";

// Every job kind the server runs, with its handler: one line per kind (jobs/queue.ts `jobKinds`).
// The runner (jobs/runner.ts) is shared infrastructure and knows no feature: the handlers are
// named here, where features may be imported. A kind with no handler is never claimed by this
// instance (it waits for one that has it).
export function jobHandlers(services: Services): Record<string, JobHandler> {
  return {
    [jobKinds.recomputePredictions]: recomputeWithModelInUse(services),
    [jobKinds.trainModel]: trainModel(services),
    [jobKinds.planDigests]: planDigests(services),
    [jobKinds.sendMail]: sendOutbox(services),
    [oneRosterJobs.invitationMail]: invitationMailJob(services),
    [privacyJobs.daily]: dailyPrivacyJob(services),
    [privacyJobs.retentionPurge]: retentionPurgeJob(services),
  };
}

/** Recomputation reads the model in use at once (a promotion may be a second old here). */
function recomputeWithModelInUse(services: Services): JobHandler {
  const recompute = recomputePredictions(services);
  return async (context) => {
    await services.models.refresh(true);
    await recompute(context);
  };
}
