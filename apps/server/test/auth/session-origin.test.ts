import { describe, expect } from "vitest";
import { randomIp, type SignedInUser, signIn, testPassword } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Issue 26: logout, refresh and re-authentication act on the session the browser's cookie (or
// token) names. A page of a sibling subdomain is same-site, so SameSite cookies do not stop it:
// these calls answer 403 cross_origin_refused unless they come from the app's own origin (Origin
// equal to PUBLIC_URL's, or no Origin with Sec-Fetch-Site same-origin or none). A client that
// sends neither header is no browser, and no other site can make it send anything: it passes.

const app = "http://gradecast.school.example";
const sibling = "http://homework.school.example";

type Action = "logout" | "refresh" | "reauth";

function call(t: TestApp, who: SignedInUser, action: Action, headers: Record<string, string>) {
  return t.app.inject({
    method: "POST",
    url: `/api/auth/${action}`,
    remoteAddress: randomIp(),
    cookies: { gradecast_refresh: who.refreshToken },
    headers: { ...headers, ...(action === "reauth" ? who.auth : {}) },
    ...(action === "reauth" ? { payload: { password: testPassword } } : {}),
  });
}

/** Whether the session still refreshes, from the app's own page (and keeps its new token). */
async function stillSignedIn(t: TestApp, who: SignedInUser): Promise<boolean> {
  const res = await call(t, who, "refresh", { "sec-fetch-site": "same-origin" });
  if (res.statusCode !== 200) return false;
  who.refreshToken = res.cookies.find((c) => c.name === "gradecast_refresh")?.value ?? "";
  return true;
}

const tests = apiTests({ env: { PUBLIC_URL: app, RATE_LIMITS: "off" } });

describe.each(dialects)("session calls from other origins (%s)", (dialect) => {
  const test = tests[dialect];

  for (const action of ["logout", "refresh", "reauth"] as const) {
    test(`${action} from a sibling subdomain's page is refused and the session lives on`, async ({
      t,
    }) => {
      const who = await signIn(t, "student");
      const refused: Record<string, string>[] = [
        { origin: sibling, "sec-fetch-site": "same-site" },
        { origin: sibling },
        { "sec-fetch-site": "same-site" },
        { "sec-fetch-site": "cross-site" },
        { origin: "https://gradecast.school.example" },
      ];
      for (const headers of refused) {
        const res = await call(t, who, action, headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
        expect(errorOf(res.body).code).toBe("cross_origin_refused");
        // The refusal clears no cookie either.
        expect(res.cookies.filter((c) => c.name === "gradecast_refresh")).toEqual([]);
      }
      expect(await stillSignedIn(t, who)).toBe(true);
    });
  }

  test("the app's own pages, and clients that are not browsers, still log out, refresh and re-authenticate", async ({
    t,
  }) => {
    const allowed: Record<string, string>[] = [
      { origin: app, "sec-fetch-site": "same-origin" },
      { origin: app },
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      {},
    ];
    for (const headers of allowed) {
      const who = await signIn(t, "student");
      const reauth = await call(t, who, "reauth", headers);
      expect(reauth.statusCode, JSON.stringify(headers)).toBe(204);
      const refreshed = await call(t, who, "refresh", headers);
      expect(refreshed.statusCode, JSON.stringify(headers)).toBe(200);
      who.refreshToken = refreshed.cookies.find((c) => c.name === "gradecast_refresh")?.value ?? "";
      const out = await call(t, who, "logout", headers);
      expect(out.statusCode, JSON.stringify(headers)).toBe(204);
      expect(await stillSignedIn(t, who)).toBe(false);
    }
  });
});

const tests2 = apiTests({ env: { RATE_LIMITS: "off" } });

describe.each(dialects)("session calls without PUBLIC_URL (%s)", (dialect) => {
  const test = tests2[dialect];

  test("the app's origin is the host the browser asked for", async ({ t }) => {
    const who = await signIn(t, "student");
    const from = (origin: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/logout",
        remoteAddress: randomIp(),
        cookies: { gradecast_refresh: who.refreshToken },
        headers: { host: "localhost:3000", origin },
      });
    expect((await from("http://localhost:5173")).statusCode).toBe(403);
    expect(await stillSignedIn(t, who)).toBe(true);
    expect((await from("http://localhost:3000")).statusCode).toBe(204);
    expect(await stillSignedIn(t, who)).toBe(false);
  });
});
