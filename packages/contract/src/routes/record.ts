import { classTeachers, defineRoute, idParams, memberParams, staffOwn } from "../route.ts";
import {
  classRecordSchema,
  recordCellWriteSchema,
  recordHistorySchema,
  recordImportLimits,
  recordImportQuerySchema,
  recordImportSchema,
  recordRowAnswerSchema,
} from "../school-record.ts";

// The school record (issue 29): the gradebook of a class. Its teachers read and change it; an
// admin reads it; anybody else gets 404 for the class (the class policy's verb `record` writes).
// Changing it is a teacher's alone (as an intervention note is): an admin is refused by role.

export const get = defineRoute({
  method: "GET",
  path: "/api/classes/:id/record",
  access: staffOwn,
  summary:
    "A class's school record: each enrolled student's grades, absences, failures and outcome",
  params: idParams,
  response: { 200: classRecordSchema },
});

export const setCell = defineRoute({
  method: "PUT",
  path: "/api/classes/:id/record/:uid",
  access: classTeachers,
  summary: "Set or clear one value of a student's record (the class's teachers)",
  params: memberParams,
  body: recordCellWriteSchema,
  response: { 200: recordRowAnswerSchema },
});

export const history = defineRoute({
  method: "GET",
  path: "/api/classes/:id/record/:uid/history",
  access: staffOwn,
  summary: "Every value a student's record held, newest first",
  params: memberParams,
  response: { 200: recordHistorySchema },
});

export const importRecord = defineRoute({
  method: "POST",
  path: "/api/classes/:id/record/import",
  access: classTeachers,
  summary:
    "Import values from CSV (email,G1,G2,absences,failures,G3,sat: any of the value columns); ?dryRun=true previews",
  params: idParams,
  querystring: recordImportQuerySchema,
  response: { 200: recordImportSchema },
  bodyLimit: recordImportLimits.bytes,
  consumes: "text/csv",
});
