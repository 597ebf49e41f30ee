import type { AuthUser } from "./access-hook.ts";

/** Who does something, as the services and the audit log see it: the user and their address. */
export interface Actor {
  user: AuthUser;
  ip: string | null;
}

/** What a domain policy reads of the caller: who they are and their role. */
export interface PolicyCaller {
  user: Pick<AuthUser, "id" | "role">;
}
