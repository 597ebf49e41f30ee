import type { LinkedReport } from "@gradecast/contract/report-students";
import { expect } from "vitest";
import type { SignedInUser } from "./accounts.ts";
import type { TestApp } from "./helpers.ts";

type Page = { items: LinkedReport[]; nextCursor: string | null };

/**
 * The ids of the reports who's list (GET /api/reports with this query) holds, read `limit` at a
 * time through the cursors to the end, or until `max` ids are read; each page must answer 200.
 */
export async function listedIds(
  t: TestApp,
  who: SignedInUser,
  query: string,
  limit: number,
  max = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/reports?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`,
      headers: who.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page;
    ids.push(...page.items.map((r) => r.id));
    cursor = ids.length < max ? page.nextCursor : null;
  } while (cursor);
  return ids;
}
