import { z } from "zod";
import { studentRecordListSchema, studentRecordSchema } from "../api-responses.ts";
import { adminRecordsQuerySchema } from "../prediction.ts";
import { questionnaireSchema } from "../questionnaire.ts";
import "../questionnaire-json.ts";
import { admins, defineRoute, kb, students, studentsOwn } from "../route.ts";

// The questionnaire's saved answers.

export const save = defineRoute({
  method: "POST",
  path: "/api/students",
  access: students,
  summary: "Save the questionnaire's answers",
  body: questionnaireSchema,
  response: { 201: z.object({ student: studentRecordSchema }) },
  bodyLimit: kb(4),
});

export const mine = defineRoute({
  method: "GET",
  path: "/api/students/mine",
  access: studentsOwn,
  summary: "The caller's saved questionnaires",
  response: { 200: studentRecordListSchema },
});

export const list = defineRoute({
  method: "GET",
  path: "/api/students",
  access: admins,
  summary: "Every student's saved questionnaires (admins)",
  querystring: adminRecordsQuerySchema,
  response: {
    200: z.object({ items: z.array(studentRecordSchema.extend({ userId: z.string() })) }),
  },
});
