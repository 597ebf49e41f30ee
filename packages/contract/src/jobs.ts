import { z } from "zod";

// Background jobs (issue 29): long work the server does off the request path, such as
// recomputing a class's predictions. The person who started a job (and an admin) can follow it.

export const jobStates = ["queued", "running", "done", "failed"] as const;
export type JobState = (typeof jobStates)[number];

export const jobStatusSchema = z.object({
  id: z.string(),
  kind: z.string().describe('What the job does, e.g. "predictions.recompute"'),
  state: z
    .enum(jobStates)
    .describe("queued: waiting (or waiting to retry); running; done; failed (for good)"),
  progress: z.object({
    done: z.number().int(),
    total: z.number().int().nullable().describe("null until the job knows how much there is"),
  }),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z
    .string()
    .nullable()
    .describe("Why the last run failed, in a sentence (never a stack trace); null otherwise"),
});
export type JobStatus = z.infer<typeof jobStatusSchema>;
