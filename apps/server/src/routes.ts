import type { FastifyInstance } from "fastify";
import { teacherInvitationRoutes } from "./admin/invitation-routes.ts";
import { adminRoutes } from "./admin/routes.ts";
import { alertRoutes } from "./alerts/routes.ts";
import { analyticsRoutes } from "./analytics/routes.ts";
import { installAccessHook } from "./auth/access-hook.ts";
import { createAuthContext, createAuthenticate } from "./auth/authenticate.ts";
import { oidcRoutes } from "./auth/oidc-routes.ts";
import { authRoutes } from "./auth/routes.ts";
import { classRiskRoutes } from "./classes/risk-routes.ts";
import { classRoutes } from "./classes/routes.ts";
import { consentRoutes } from "./consent/routes.ts";
import { evaluationRoutes } from "./evaluation/routes.ts";
import { apiDocsRoutes } from "./http/api-docs.ts";
import { healthRoutes } from "./http/health.ts";
import { setupRoutes } from "./http/setup.ts";
import { siteRoutes } from "./http/site.ts";
import { jobStatusRoutes } from "./job-status/routes.ts";
import { modelRoutes } from "./model/routes.ts";
import { oneRosterRoutes } from "./oneroster/routes.ts";
import { predictionRoutes } from "./prediction/routes.ts";
import { privacyRoutes } from "./privacy/routes.ts";
import { recordRoutes } from "./record/routes.ts";
import { reportRoutes } from "./reports/routes.ts";
import { reportStudentRoutes } from "./reports/student-routes.ts";
import type { Services } from "./services.ts";
import { studentRoutes } from "./students/routes.ts";
import { meRoutes } from "./users/routes.ts";

// Every route of the API, registered after the access hook so that each is checked against
// the contract's table.
/** `page`: the web app's index.html as served (empty when the web app is not built). */
export async function registerRoutes(app: FastifyInstance, services: Services, page = "") {
  const auth = await createAuthContext(services);
  installAccessHook(app, createAuthenticate(auth));
  await healthRoutes(app, services);
  await siteRoutes(app, services);
  await setupRoutes(app, services);
  await apiDocsRoutes(app);
  await authRoutes(app, auth);
  await oidcRoutes(app, auth);
  await meRoutes(app, auth);
  await analyticsRoutes(app, auth, page);
  await reportRoutes(app, services);
  await adminRoutes(app, auth);
  await oneRosterRoutes(app, auth);
  await studentRoutes(app, services);
  await predictionRoutes(app, services);
  await classRoutes(app, services);
  await teacherInvitationRoutes(app, services);
  await reportStudentRoutes(app, services);
  await classRiskRoutes(app, services);
  await recordRoutes(app, services);
  await consentRoutes(app, services);

  await evaluationRoutes(app, auth);
  await modelRoutes(app, auth);
  await jobStatusRoutes(app, services);
  await privacyRoutes(app, auth);
  await alertRoutes(app, services);
}
