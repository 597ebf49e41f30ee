import { describe, expect, it } from "vitest";
import { loginUrlFor, safeNext } from "./next.ts";

describe("safeNext", () => {
  it("keeps a path of this site with its query and hash", () => {
    expect(safeNext("/profile")).toBe("/profile");
    expect(safeNext("/teacher-dashboard?search=ann#top")).toBe("/teacher-dashboard?search=ann#top");
    expect(safeNext("/Verify")).toBe("/Verify");
  });

  it("falls back to /Home when there is nothing to go back to", () => {
    expect(safeNext(null)).toBe("/Home");
    expect(safeNext(undefined)).toBe("/Home");
    expect(safeNext("")).toBe("/Home");
  });

  it("refuses anything that leaves the site", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/path",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "evil.example",
      "/\tevil",
      " /profile",
    ]) {
      expect(safeNext(bad), bad).toBe("/Home");
    }
  });

  it("does not send a signed-in user back to a sign-in screen", () => {
    expect(safeNext("/login")).toBe("/Home");
    expect(safeNext("/")).toBe("/Home");
    expect(safeNext("/register?x=1")).toBe("/Home");
  });
});

describe("loginUrlFor", () => {
  it("carries the destination in ?next=", () => {
    expect(loginUrlFor("/profile")).toBe("/login?next=%2Fprofile");
    expect(loginUrlFor("/teacher-dashboard?search=a%20b")).toBe(
      "/login?next=%2Fteacher-dashboard%3Fsearch%3Da%2520b",
    );
    expect(loginUrlFor("/Home")).toBe("/login?next=%2FHome");
  });

  it("drops a destination that is not a page of this site", () => {
    expect(loginUrlFor("//evil.example")).toBe("/login");
  });
});
