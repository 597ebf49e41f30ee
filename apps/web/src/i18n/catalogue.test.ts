import { describe, expect, test } from "vitest";
import en from "./catalogue-en.ts";
import enApp from "./catalogue-en-app.ts";
import ptPT from "./catalogue-pt-PT.ts";
import ptPTApp from "./catalogue-pt-PT-app.ts";

// The catalogue's two parts (issue 33): the first screen loads only the public one, so each
// message must be in exactly one part, and both languages must split the same way.
// The contract's privacy area is the server's alone (it writes the notice in the reader's
// language), so neither part carries it.
const all = import.meta.glob<Record<string, string>>(
  [
    "../locales/*/*.json",
    "../../../../packages/contract/src/locales/*/*.json",
    "!../../../../packages/contract/src/locales/*/privacy.json",
  ],
  { eager: true, import: "default" },
);
const keysOf = (language: string) =>
  Object.entries(all)
    .filter(([file]) => file.includes(`/locales/${language}/`))
    .flatMap(([, messages]) => Object.keys(messages))
    .sort();

describe("the catalogue's parts", () => {
  test.each([
    ["en", en, enApp],
    ["pt-PT", ptPT, ptPTApp],
  ])("%s: every message is in exactly one part", (language, publicPart, appPart) => {
    const inPublic = Object.keys(publicPart);
    const inApp = Object.keys(appPart);
    expect(inPublic.filter((key) => key in appPart)).toEqual([]);
    expect([...inPublic, ...inApp].sort()).toEqual(keysOf(language));
  });

  test("both languages put the same areas in the first screen's part", () => {
    expect(Object.keys(ptPT).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(en)).toContain("login.title");
    expect(Object.keys(enApp)).toContain("fields.enterPassword");
  });
});
