import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";

// The provider's configuration is read once at start; a combination that cannot work stops the
// server with a line saying why (issue 34).
describe("configuration of sign-in with the school's provider", () => {
  const issuer = {
    OIDC_ISSUER: "https://accounts.google.com",
    OIDC_CLIENT_ID: "client",
    OIDC_CLIENT_SECRET: "s3cret-value",
    PUBLIC_URL: "https://gradecast.example-school.org",
  };

  it("is off without an issuer, and reads every rule with one", () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    const config = loadConfig({
      ...issuer,
      OIDC_NAME: "Google",
      OIDC_ALLOWED_DOMAINS: "Example-School.org, pupils.example-school.org",
      OIDC_GOOGLE_HD: "example-school.org",
      OIDC_GROUPS_CLAIM: "groups",
      OIDC_TEACHER_GROUPS: "teachers,staff",
      OIDC_TRUST_AMR_MFA: "on",
      LOCAL_PASSWORDS_OFF: "student, teacher",
    });
    expect(config.oidc).toMatchObject({
      name: "Google",
      allowedDomains: ["example-school.org", "pupils.example-school.org"],
      googleHd: "example-school.org",
      teacherGroups: ["teachers", "staff"],
      trustAmrMfa: true,
    });
    expect(config.localPasswordsOff).toEqual(["student", "teacher"]);
  });

  it("refuses what cannot work, and never prints the client secret", () => {
    expect(() => loadConfig({ ...issuer, PUBLIC_URL: "" })).toThrow(/PUBLIC_URL: must be set/);
    expect(() => loadConfig({ ...issuer, OIDC_CLIENT_ID: "" })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => loadConfig({ LOCAL_PASSWORDS_OFF: "admin" })).toThrow(/needs OIDC_ISSUER/);
    expect(() => loadConfig({ ...issuer, OIDC_GROUPS_CLAIM: "groups" })).toThrow(
      /set both or neither/,
    );
    expect(() => loadConfig({ ...issuer, LOCAL_PASSWORDS_OFF: "everyone" })).toThrow(
      /LOCAL_PASSWORDS_OFF/,
    );
    expect(() =>
      loadConfig({ ...issuer, OIDC_ISSUER: "ftp://x", OIDC_CLIENT_SECRET: "s3cret" }),
    ).not.toThrow(/s3cret/);
  });
});
