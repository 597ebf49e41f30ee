import { readFile, writeFile } from "node:fs/promises";
import { describe, expect } from "vitest";
import { apiTest } from "../support/fixtures.ts";

// The API document is derived from the route declarations (docs/decisions/0015): moving where a
// route is declared must not change what clients are told. The document the app serves is
// compared byte for byte with the committed one (stored indented, so that a change reads as a
// diff). An intended change regenerates it: UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run --project
// api apps/server/test/http/openapi-snapshot.test.ts, and the commit says what changed.
const snapshot = new URL("../support/snapshots/openapi.json", import.meta.url);

const test = apiTest("pglite");

describe("the API document, against its committed snapshot", () => {
  test("is byte for byte the committed document", async ({ t }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    if (process.env.UPDATE_OPENAPI_SNAPSHOT) {
      await writeFile(snapshot, `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`);
    }
    const committed = await readFile(snapshot, "utf8");
    // JSON.stringify keeps key order: the served bytes equal the snapshot's, compacted.
    expect(res.body).toBe(JSON.stringify(JSON.parse(committed)));
  });
});
