import type { AuthUser } from "./access-hook.ts";

/** Who does something, as the services and the audit log see it: the user and their address. */
export interface Actor {
  user: AuthUser;
  ip: string | null;
}
