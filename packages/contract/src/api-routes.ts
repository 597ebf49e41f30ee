import { bodyLimitOfEntry } from "./route.ts";
import { type ApiRoute, routeByKey } from "./routes/index.ts";

// Each route's HTTP contract by its key, read from the routes' entries (routes/*.ts,
// docs/decisions/0015): for tests that name a route by what is called.
export { defaultBodyLimit, type RouteContract } from "./route.ts";

export const apiRoutes = routeByKey;

/** The most bytes a route's request body may have. */
export function bodyLimitOf(route: ApiRoute): number {
  return bodyLimitOfEntry(routeByKey[route]);
}
