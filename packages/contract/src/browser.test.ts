import { expect, test } from "vitest";
import { validateWithoutEval } from "./browser.ts";

test("zod's own config sees the browser's setting: objects are parsed without new Function", async () => {
  validateWithoutEval();
  const { config } = await import("zod/v4/core");
  expect(config().jitless).toBe(true);
});
