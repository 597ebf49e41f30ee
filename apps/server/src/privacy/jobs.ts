import { type RetentionCategory, retentionCategories } from "@gradecast/contract/personal-data";
import { loadSigningKeys } from "../auth/tokens.ts";
import type { JobHandler } from "../jobs/queue.ts";
import type { Services } from "../services.ts";
import { checkRetention, purgeCategory, purgeDueAccounts, scheduleDaily } from "./service.ts";

// The privacy jobs (issue 31), on the jobs table: each run is a row, so it survives restarts and
// runs once across instances. The daily job queues its own next run as it starts, and each start
// of the server queues one if none waits.

export function dailyPrivacyJob(services: Services): JobHandler {
  return async ({ progress }) => {
    // The next run first: a run that fails (and is retried, then given up) still has a successor.
    await scheduleDaily(services);
    const keys = await loadSigningKeys(services.config);
    await purgeDueAccounts(services, keys);
    await progress(1, 2);
    await checkRetention(services);
    await progress(2, 2);
  };
}

export function retentionPurgeJob(services: Services): JobHandler {
  return async ({ job }) => {
    const category = job.payload.category as RetentionCategory;
    if (!retentionCategories.includes(category)) return;
    await purgeCategory(services, category, job.createdBy);
  };
}
