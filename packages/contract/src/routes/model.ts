import {
  modelStateSchema,
  modelSwitchAnswerSchema,
  modelSwitchBodySchema,
  modelTrainAnswerSchema,
} from "../model-lifecycle.ts";
import { admins, csvDownload, defineRoute } from "../route.ts";

// The model's versions (issue 30): admins only. Training runs as a background job; promotion
// and rollback need a recent sign-in or re-authentication, are audited, and start the
// recomputation of stored predictions.

export const state = defineRoute({
  method: "GET",
  path: "/api/admin/model",
  access: admins,
  summary:
    "The model in use, its card, the school's outcomes per subject and setup, candidates and versions (admins)",
  response: { 200: modelStateSchema },
});

export const train = defineRoute({
  method: "POST",
  path: "/api/admin/model/train",
  access: admins,
  summary:
    "Train a candidate on the school's outcomes, as a background job (admins; 409 naming the running job while one is queued or running)",
  response: { 202: modelTrainAnswerSchema },
});

export const promote = defineRoute({
  method: "POST",
  path: "/api/admin/model/promote",
  access: admins,
  summary:
    "Put a candidate that passed the gate in use on every instance, and recompute stored predictions (admins, re-authentication)",
  body: modelSwitchBodySchema,
  response: { 200: modelSwitchAnswerSchema },
});

export const rollback = defineRoute({
  method: "POST",
  path: "/api/admin/model/rollback",
  access: admins,
  summary:
    "Put an earlier version back in use, and recompute stored predictions (admins, re-authentication)",
  body: modelSwitchBodySchema,
  response: { 200: modelSwitchAnswerSchema },
});

export const outcomes = defineRoute({
  method: "GET",
  path: "/api/admin/model/outcomes.csv",
  access: admins,
  summary:
    "The school's outcomes as training rows in the UCI files' format (one per student and stage, students under pseudonyms; admins)",
  ...csvDownload,
});
