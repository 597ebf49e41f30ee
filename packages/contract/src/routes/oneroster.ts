import { oneRosterLimits, oneRosterQuerySchema, oneRosterResultSchema } from "../oneroster.ts";
import { admins, defineRoute } from "../route.ts";

// Rosters from the school's system (issue 34): admins only.

export const importBundle = defineRoute({
  method: "POST",
  path: "/api/admin/oneroster",
  access: admins,
  summary:
    "Import a OneRoster 1.2 CSV bundle (ZIP): classes, teachers and enrolments; ?dryRun=true previews, ?mode=delta applies only what is listed (admins)",
  querystring: oneRosterQuerySchema,
  response: { 200: oneRosterResultSchema },
  bodyLimit: oneRosterLimits.bytes,
  consumes: "application/zip",
});
