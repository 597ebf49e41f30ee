import { describe, expect, it } from "vitest";
import { isChunkLoadError } from "./chunk-error.ts";

describe("isChunkLoadError", () => {
  it("recognises a failed dynamic import in Chromium, Firefox and Safari wording", () => {
    for (const message of [
      "Failed to fetch dynamically imported module: http://x/assets/help-abc123.js",
      "error loading dynamically imported module: http://x/assets/help.js",
      "Importing a module script failed.",
    ]) {
      expect(isChunkLoadError(new TypeError(message)), message).toBe(true);
    }
  });

  it("treats any other error as a render error", () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
