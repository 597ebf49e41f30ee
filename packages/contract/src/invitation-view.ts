import { z } from "zod";

// An invitation still open, as a list shows it: a class's invited students and the admins'
// invited teachers read the same three fields.
export const invitationViewSchema = z.object({
  email: z.string(),
  name: z.string(),
  invitedAt: z.string(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;
