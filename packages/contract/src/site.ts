import { z } from "zod";

// What the public pages show about this installation: GET /api/site, anyone may read it. The
// school sets its own name (SCHOOL_NAME) and contact address (CONTACT_EMAIL); either may be unset,
// and then the pages say so rather than show a placeholder.
export const schoolNameLimit = 100;

export const siteInfoSchema = z.object({
  contactEmail: z.email().nullable(),
  schoolName: z.string().max(schoolNameLimit).nullable(),
});

export type SiteInfo = z.infer<typeof siteInfoSchema>;
