import {
  enrolledStudentListSchema,
  myReportsPageSchema,
  noContentSchema,
  reportAnswerSchema,
  reportPageSchema,
} from "../api-responses.ts";
import {
  enrolledStudentQuerySchema,
  myReportsQuerySchema,
  reportCreateSchema,
  reportUpdateSchema,
} from "../report-students.ts";
import { reportListQuerySchema } from "../reports.ts";
import {
  csvDownload,
  defineRoute,
  idParams,
  kb,
  staff,
  staffOwn,
  verifiedStudents,
} from "../route.ts";

// Teachers' reports about students (and a student's own reports, issue 17).

export const create = defineRoute({
  method: "POST",
  path: "/api/reports",
  access: staff,
  summary: "File a teacher report (then read it with GET /api/reports/{id})",
  body: reportCreateSchema,
  response: { 201: reportAnswerSchema },
  bodyLimit: kb(20),
});

export const list = defineRoute({
  method: "GET",
  path: "/api/reports",
  access: staff,
  summary: "The reports the caller may read, a page at a time",
  querystring: reportListQuerySchema,
  response: { 200: reportPageSchema },
});

export const exportCsv = defineRoute({
  method: "GET",
  path: "/api/reports/export.csv",
  access: staff,
  summary: "The same reports as a CSV file",
  querystring: reportListQuerySchema,
  ...csvDownload,
});

// A teacher reads their own reports and those of their classes' students (docs/decisions/0005).
export const get = defineRoute({
  method: "GET",
  path: "/api/reports/:id",
  access: { ...staff, scope: { teacher: "class", admin: "any" } },
  summary: "One report",
  params: idParams,
  response: { 200: reportAnswerSchema },
});

export const update = defineRoute({
  method: "PATCH",
  path: "/api/reports/:id",
  access: staffOwn,
  summary: "Change a report",
  body: reportUpdateSchema,
  params: idParams,
  response: { 200: reportAnswerSchema },
  bodyLimit: kb(20),
});

export const remove = defineRoute({
  method: "DELETE",
  path: "/api/reports/:id",
  access: staffOwn,
  summary: "Delete a report",
  params: idParams,
  response: { 204: noContentSchema },
});

// Reports about enrolled students (issue 17): the report form's picker, a student's own reports.
export const enrolledStudents = defineRoute({
  method: "GET",
  path: "/api/classes/students",
  access: staff,
  summary: "Enrolled students of the caller's classes whose name matches (the report form)",
  querystring: enrolledStudentQuerySchema,
  response: { 200: enrolledStudentListSchema },
});

export const mine = defineRoute({
  method: "GET",
  path: "/api/me/reports",
  access: verifiedStudents,
  summary: "The reports teachers wrote about the calling student",
  querystring: myReportsQuerySchema,
  response: { 200: myReportsPageSchema },
});
