import {
  digestSettingSchema,
  digestSettingWriteSchema,
  flagFeedbackListSchema,
  flagFeedbackSchema,
  flagFeedbackWriteSchema,
  flagSummarySchema,
  notificationListSchema,
  notificationsReadAnswerSchema,
  notificationsReadSchema,
  planAnswerSchema,
  planCreateSchema,
  planListSchema,
  planUpdateSchema,
  unsubscribeAnswerSchema,
  unsubscribeSchema,
} from "../alerts.ts";
import {
  anyone,
  classParams,
  classTeachers,
  defineRoute,
  kb,
  memberParams,
  pathId,
  signedInVerified,
  staff,
} from "../route.ts";

// Early warning (issue 32). Notifications and the digest setting are the caller's own; flags and
// plans are the class's teachers' alone (an admin, another class's teacher, a student: 404 for
// the class, as on the risk list's notes). The unsubscribe link needs no sign-in: its token is
// signed with the person's own key.

export const list = defineRoute({
  method: "GET",
  path: "/api/notifications",
  access: signedInVerified,
  summary: "The caller's notifications, newest first, with the number unread",
  response: { 200: notificationListSchema },
});

export const markRead = defineRoute({
  method: "POST",
  path: "/api/notifications/read",
  access: signedInVerified,
  summary: "Mark some of the caller's notifications (or all) read",
  body: notificationsReadSchema,
  bodyLimit: kb(32),
  response: { 200: notificationsReadAnswerSchema },
});

export const digest = defineRoute({
  method: "GET",
  path: "/api/me/digest",
  access: signedInVerified,
  summary: "How often the caller gets an email digest of their notifications",
  response: { 200: digestSettingSchema },
});

export const setDigest = defineRoute({
  method: "PUT",
  path: "/api/me/digest",
  access: signedInVerified,
  summary: "Choose the email digest: off, daily or weekly",
  body: digestSettingWriteSchema,
  response: { 200: digestSettingSchema },
});

export const unsubscribe = defineRoute({
  method: "POST",
  path: "/api/unsubscribe",
  access: anyone,
  summary: "Turn the digest off from the emailed link (no sign-in: the token is signed)",
  body: unsubscribeSchema,
  response: { 200: unsubscribeAnswerSchema },
});

export const flags = defineRoute({
  method: "GET",
  path: "/api/classes/:id/flags",
  access: classTeachers,
  summary: "The caller's judgements of the class's current risk flags",
  params: classParams,
  response: { 200: flagFeedbackListSchema },
});

export const judgeFlag = defineRoute({
  method: "PUT",
  path: "/api/classes/:id/students/:uid/flag",
  access: classTeachers,
  summary: "Judge a student's current risk flag: acknowledged, not useful or incorrectly flagged",
  params: memberParams,
  body: flagFeedbackWriteSchema,
  response: { 200: flagFeedbackSchema },
});

export const flagSummary = defineRoute({
  method: "GET",
  path: "/api/evaluation/flags",
  access: staff,
  summary: "Teachers' judgement of risk flags per model version (share judged useful)",
  response: { 200: flagSummarySchema },
});

export const plans = defineRoute({
  method: "GET",
  path: "/api/classes/:id/plans",
  access: classTeachers,
  summary: "A class's intervention plans: overdue reviews first, then open, then closed",
  params: classParams,
  response: { 200: planListSchema },
});

export const createPlan = defineRoute({
  method: "POST",
  path: "/api/classes/:id/students/:uid/plans",
  access: classTeachers,
  summary: "Start an intervention plan for an enrolled student (tier, owner, goal, review date)",
  params: memberParams,
  body: planCreateSchema,
  bodyLimit: kb(12),
  response: { 201: planAnswerSchema },
});

export const updatePlan = defineRoute({
  method: "PATCH",
  path: "/api/classes/:id/plans/:planId",
  access: classTeachers,
  summary: "Change an open intervention plan, or close it with an outcome",
  params: classParams.extend({ planId: pathId("plan") }),
  body: planUpdateSchema,
  bodyLimit: kb(16),
  response: { 200: planAnswerSchema },
});
