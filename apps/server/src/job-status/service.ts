import { isId } from "@gradecast/contract/ids";
import type { JobStatus } from "@gradecast/contract/jobs";
import type { Actor } from "../auth/actor.ts";
import { notFound } from "../domain-errors.ts";
import { jobById } from "../jobs/repository.ts";
import type { Services } from "../services.ts";

// A background job's status, for the person who started it and for admins. Anybody else gets
// the answer a missing job gets (404): a job's id tells nobody else that it exists.

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

export async function jobStatus(services: Services, actor: Actor, id: string): Promise<JobStatus> {
  if (!isId(id)) throw notFound();
  const job = await jobById(services.db, id);
  if (!job) throw notFound();
  if (actor.user.role !== "admin" && job.created_by !== actor.user.id) throw notFound();
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    progress: { done: job.progress_done, total: job.progress_total },
    createdAt: new Date(job.created_at as unknown as Date).toISOString(),
    startedAt: iso(job.started_at),
    finishedAt: iso(job.finished_at),
    error: job.error,
  };
}
