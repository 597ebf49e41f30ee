import { describe, expect, it } from "vitest";
import { ApiError } from "./client.ts";
import { formErrors } from "./form-errors.ts";

const invalid = (fields: Record<string, string>) =>
  new ApiError(400, "validation_failed", Object.values(fields)[0] ?? "", fields);

describe("formErrors", () => {
  it("puts a field's message beside the field only, not in the form-level alert", () => {
    expect(
      formErrors(invalid({ password: "This password is too common." }), ["name", "password"]),
    ).toEqual({ fields: { password: "This password is too common." }, message: null });
  });

  it("keeps the message of a field the form does not have for the alert", () => {
    expect(
      formErrors(invalid({ name: "Enter your name.", token: "The link has expired." }), ["name"]),
    ).toEqual({ fields: { name: "Enter your name." }, message: "The link has expired." });
    expect(formErrors(invalid({ token: "The link has expired." }), ["name"])).toEqual({
      fields: {},
      message: "The link has expired.",
    });
  });

  it("shows an error without fields, or one that is not the server's, in the alert", () => {
    const wrong = new ApiError(401, "invalid_credentials", "Your current password is incorrect.");
    expect(formErrors(wrong, ["currentPassword"])).toEqual({
      fields: {},
      message: "Your current password is incorrect.",
    });
    expect(formErrors(new Error("Failed to fetch"), ["name"])).toEqual({
      fields: {},
      message: "Failed to fetch",
    });
  });
});
