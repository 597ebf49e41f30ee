import { z } from "zod";

// What the public pages show about this installation: GET /api/site, anyone may read it. A
// school sets its own contact address with CONTACT_EMAIL; the default is the project's.
export const defaultContactEmail = "support@gradecast.local";

export const siteInfoSchema = z.object({ contactEmail: z.email() });

export type SiteInfo = z.infer<typeof siteInfoSchema>;
