import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { auditActions, auditDetailLabels, auditValueLabels } from "./admin.ts";
import { areas, loadCatalogue } from "./i18n.ts";
import { locales } from "./locale.ts";
import { messages } from "./messages.ts";
import { questions, sections } from "./questionnaire.ts";

/** The names of a message's arguments, nested ones (in plurals and selects) too. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: ReturnType<typeof parse>) => {
    for (const element of elements) {
      if (element.type !== TYPE.literal && element.type !== TYPE.pound) names.add(element.value);
      if ("options" in element) {
        for (const option of Object.values(element.options)) walk(option.value);
      }
    }
  };
  walk(parse(message));
  return [...names].sort();
}

describe("the shared catalogues", () => {
  for (const area of areas) {
    it(`${area}: both languages have the same keys, and every message parses with the same arguments`, async () => {
      const [en, pt] = await Promise.all(locales.map((locale) => loadCatalogue(locale, area)));
      expect(Object.keys(pt ?? {}).sort()).toEqual(Object.keys(en ?? {}).sort());
      for (const [key, text] of Object.entries(en ?? {})) {
        expect(key.startsWith(`${area}.`), key).toBe(true);
        const ptText = pt?.[key] ?? "";
        expect(() => parse(text), key).not.toThrow();
        expect(() => parse(ptText), key).not.toThrow();
        expect(argumentsOf(ptText), key).toEqual(argumentsOf(text));
      }
    });
  }

  it("keeps the contract's English messages letter for letter", async () => {
    const en = await loadCatalogue("en", "messages");
    for (const [name, value] of Object.entries(messages)) {
      if (typeof value === "string") expect(en[`messages.${name}`], name).toBe(value);
      else expect(en[`messages.${name}`], name).toBeDefined();
    }
  });

  it("has every question, its help, section and answer label in English as the questionnaire", async () => {
    const en = await loadCatalogue("en", "questionnaire");
    for (const s of sections) expect(en[`questionnaire.section.${s.key}`]).toBe(s.title);
    for (const q of questions) {
      expect(en[`questionnaire.${q.key}.label`]).toBe(q.label);
      expect(en[`questionnaire.${q.key}.help`]).toBe(q.help);
      for (const o of q.options) {
        if (String(o.value) !== o.label) {
          expect(en[`questionnaire.${q.key}.option.${o.value}`]).toBe(o.label);
        }
      }
    }
  });

  it("has every audit action, detail and value the log names, in English as the contract", async () => {
    const en = await loadCatalogue("en", "audit");
    const labels = [
      ...Object.entries(auditActions).map(([k, v]) => [`audit.action.${k}`, v]),
      ...Object.entries(auditDetailLabels).map(([k, v]) => [`audit.detail.${k}`, v]),
      ...Object.entries(auditValueLabels).map(([k, v]) => [`audit.value.${k}`, v]),
    ];
    expect(Object.fromEntries(labels)).toEqual(en);
  });
});
