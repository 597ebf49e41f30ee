import type { RouteEntry } from "../route.ts";
import * as accountSecurity from "./account-security.ts";
import * as admin from "./admin.ts";
import * as analytics from "./analytics.ts";
import * as auth from "./auth.ts";
import * as classes from "./classes.ts";
import * as consent from "./consent.ts";
import * as evaluation from "./evaluation.ts";
import * as jobs from "./jobs.ts";
import * as model from "./model.ts";
import * as notifications from "./notifications.ts";
import * as oneroster from "./oneroster.ts";
import * as predictions from "./predictions.ts";
import * as privacy from "./privacy.ts";
import * as record from "./record.ts";
import * as reports from "./reports.ts";
import * as site from "./site.ts";
import * as students from "./students.ts";
import * as users from "./users.ts";

// Every API route, by domain: `routes.classes.create` is POST /api/classes. A route added to a
// domain's file is served, enforced, documented and callable from the web client from there.
// The domains' order is the order of `routeList` (the fuzz test walks it; account security last).
export const routes = {
  site,
  auth,
  users,
  reports,
  students,
  predictions,
  analytics,
  admin,
  oneroster,
  classes,
  record,
  evaluation,
  jobs,
  model,
  privacy,
  notifications,
  consent,
  accountSecurity,
} as const;

type Domains = typeof routes;
/** Any one route's entry, with its own types. */
export type AnyRoute = { [D in keyof Domains]: Domains[D][keyof Domains[D]] }[keyof Domains];
/** "METHOD /path" of every route. */
export type ApiRoute = AnyRoute["key"];
/** The entry of one route, by its key. */
export type RouteOf<K extends ApiRoute> = Extract<AnyRoute, { key: K }>;

/** Every route's entry, domain by domain (in each, by name). */
export const routeList: readonly AnyRoute[] = Object.values(routes).flatMap(
  (domain) => Object.values(domain) as AnyRoute[],
);

/** Entries by key: for tests and the server's tables that look a route up by what was called. */
export const routeByKey = Object.fromEntries(routeList.map((entry) => [entry.key, entry])) as {
  [K in ApiRoute]: RouteOf<K>;
};

routeList satisfies readonly RouteEntry[];
