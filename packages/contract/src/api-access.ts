import type { Audience } from "./roles.ts";
import type { AccessRule } from "./route.ts";
import { type ApiRoute, routeList } from "./routes/index.ts";

// Who may call each API route, read from the routes' entries (routes/*.ts, docs/decisions/0015):
// the server enforces each entry's rule in one hook (apps/server/src/auth/access-hook.ts), and the
// authorisation matrix test walks every cell of this view of them.
export type { AccessRule, Scope } from "./route.ts";
export type { ApiRoute } from "./routes/index.ts";

export const apiAccess = Object.fromEntries(
  routeList.map((entry) => [entry.key, entry.access]),
) as unknown as { readonly [K in ApiRoute]: AccessRule };

/** True when the route shows data about other people, so an unverified email is refused. */
export function needsVerifiedEmail(route: ApiRoute): boolean {
  return apiAccess[route].verified === true;
}

export function mayCall(route: ApiRoute, who: Audience): boolean {
  return apiAccess[route].allow.includes(who);
}
