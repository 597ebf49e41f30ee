import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { myReportsPage } from "./my-reports.ts";
import { enrolledStudents } from "./rosters.ts";

// Reports and enrolled students (issue 17): the report form's student picker, and what a student
// reads about themselves. The access hook has checked the role and a verified email.
export async function reportStudentRoutes(app: FastifyInstance, services: Services) {
  serve(app, routes.reports.enrolledStudents, async (request) => {
    const { search, limit } = request.query;
    const user = actorOf(request).user;
    const teacherId = user.role === "admin" ? null : user.id;
    return { items: await enrolledStudents(services.db, { teacherId, search, limit }) };
  });

  serve(app, routes.reports.mine, async (request) => {
    return myReportsPage(services, actorOf(request).user.id, request.query);
  });
}
