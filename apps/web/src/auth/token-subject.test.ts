import { describe, expect, it } from "vitest";
import { tokenSubject } from "./token-subject.ts";

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("tokenSubject", () => {
  it("reads the sub claim of a JWT", () => {
    const token = `${part({ alg: "EdDSA" })}.${part({ sub: "7f0c-é", role: "student" })}.sig`;
    expect(tokenSubject(token)).toBe("7f0c-é");
    expect(tokenSubject(`${part({ alg: "EdDSA" })}.${part({ sub: "u-123" })}.sig`)).toBe("u-123");
  });

  it("gives null for anything that is not a token with a subject", () => {
    expect(tokenSubject(null)).toBeNull();
    expect(tokenSubject("")).toBeNull();
    expect(tokenSubject("not.a.token")).toBeNull();
    expect(tokenSubject(`${part({})}.${part({ sub: 42 })}.x`)).toBeNull();
    expect(tokenSubject("onlyonepart")).toBeNull();
  });
});
