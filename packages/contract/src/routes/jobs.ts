import { jobStatusSchema } from "../jobs.ts";
import { defineRoute, idParams, signedIn } from "../route.ts";

// Background jobs: the person who started one follows its progress; an admin sees any. Anybody
// else gets 404, as for a job that does not exist.

export const get = defineRoute({
  method: "GET",
  path: "/api/jobs/:id",
  access: { ...signedIn, scope: { student: "own", teacher: "own", admin: "any" } },
  summary: "A background job's state and progress (the person who started it, or an admin)",
  params: idParams,
  response: { 200: jobStatusSchema },
});
