import { type ClassRisk, classRiskSchema, type RiskItem } from "@gradecast/contract/class-risk";
import type { ClassView } from "@gradecast/contract/classes";
import type { PredictionResult } from "@gradecast/contract/prediction";
import { expect } from "vitest";
import { randomIp, type SignedInUser } from "./accounts.ts";
import type { TestApp } from "./helpers.ts";
import { sampleQuestionnaire } from "./sample-answers.ts";

// Calls of the classes API in tests, through the real routes.
export type Caller = SignedInUser | undefined;

export function api(t: TestApp) {
  const call = (
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    who: Caller,
    payload?: object,
    remoteAddress = randomIp(),
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress,
      headers: who ? who.auth : {},
      ...(payload !== undefined ? { payload } : {}),
    });

  return {
    call,
    async createClass(who: SignedInUser, body: object = {}): Promise<ClassView> {
      const res = await call("POST", "/api/classes", who, {
        name: "Maths 10B",
        subject: "mat",
        year: "2026/27",
        ...body,
      });
      if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { class: ClassView }).class;
    },
    /** DELETE a member off one of a class's lists (students or teachers), as `who`. */
    takeOff(who: Caller, classId: string, list: "students" | "teachers", member: SignedInUser) {
      return call("DELETE", `/api/classes/${classId}/${list}/${member.user.uid}`, who);
    },
    join(who: Caller, code: unknown, remoteAddress?: string) {
      return call("POST", "/api/classes/join", who, { code }, remoteAddress);
    },
    /** A stored prediction of `who`'s answers (the sample's unless given), which must succeed. */
    async predict(
      who: SignedInUser,
      answers: object = sampleQuestionnaire,
    ): Promise<PredictionResult> {
      const res = await call("POST", "/api/predict", who, answers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as PredictionResult;
    },
    /** A class's risk list as `who` reads it, which must succeed. */
    async riskList(who: SignedInUser, classId: string): Promise<ClassRisk> {
      const res = await call("GET", `/api/classes/${classId}/risk`, who);
      expect(res.statusCode, res.body).toBe(200);
      return classRiskSchema.parse(res.json());
    },
    /** Uploads a roster file (text, or raw bytes) as text/csv. */
    roster(who: Caller, classId: string, file: string | Buffer, preview: boolean) {
      return t.app.inject({
        method: "POST",
        url: `/api/classes/${classId}/roster${preview ? "/preview" : ""}`,
        remoteAddress: randomIp(),
        headers: { ...(who ? who.auth : {}), "content-type": "text/csv" },
        payload: file,
      });
    },
  };
}

/** One student's row on a risk list; a student not on it fails the test. */
export function riskItemOf(r: ClassRisk, who: SignedInUser): RiskItem {
  const item = r.items.find((i) => i.studentId === who.user.uid);
  if (!item) throw new Error(`${who.user.name} is not on the list`);
  return item;
}
