import { evaluationQuerySchema, evaluationSchema } from "../evaluation.ts";
import { csvDownload, defineRoute, staff } from "../route.ts";

// How the model did for this school (issue 29): admins every class, a teacher the classes they
// teach (another class: 404, as for a class that does not exist).

export const get = defineRoute({
  method: "GET",
  path: "/api/evaluation",
  access: staff,
  summary: "How the model's predictions did against recorded outcomes, per setup at the time",
  querystring: evaluationQuerySchema,
  response: { 200: evaluationSchema },
});

export const csv = defineRoute({
  method: "GET",
  path: "/api/evaluation.csv",
  access: staff,
  summary: "Outcomes against the predictions made before them, students under pseudonyms",
  querystring: evaluationQuerySchema,
  ...csvDownload,
});
