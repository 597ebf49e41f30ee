import { describe, expect, it } from "vitest";
import { loadCatalogue } from "./i18n.ts";
import { categoryInfo, personalData, retentionCategories } from "./personal-data.ts";

// The privacy notice's text in the catalogues (issue 33): one key per text of the person-data
// registry, the English identical to the registry's, no key the registry does not have.
function registryKeys(): Map<string, string> {
  const keys = new Map<string, string>([
    ["privacy.kept", "Kept {until}."],
    ["privacy.keptDays", "Kept {days} days, then deleted (or {until}, if sooner)."],
    ["privacy.secret", "kept secret (a hash or a key)"],
  ]);
  for (const category of retentionCategories) {
    keys.set(`privacy.category.${category}.until`, categoryInfo[category].untilText);
  }
  for (const entry of personalData) {
    keys.set(`privacy.${entry.table}.title`, entry.title);
    keys.set(`privacy.${entry.table}.purpose`, entry.purpose);
    keys.set(`privacy.${entry.table}.whoSees`, entry.whoSees);
    for (const [name, about] of Object.entries(entry.fields)) {
      keys.set(`privacy.${entry.table}.field.${name}`, about);
    }
  }
  return keys;
}

describe("the privacy notice's catalogue", () => {
  it("has every title, purpose, audience, field and retention period of the registry, in its English", async () => {
    const en = await loadCatalogue("en", "privacy");
    const expected = registryKeys();
    expect(Object.keys(en).sort()).toEqual([...expected.keys()].sort());
    for (const [key, text] of expected) expect(en[key], key).toBe(text);
  });

  it("has every one of them in Portuguese", async () => {
    const pt = await loadCatalogue("pt-PT", "privacy");
    for (const key of registryKeys().keys()) expect(pt[key], key).toBeTruthy();
    expect(pt["privacy.guardian_consents.title"]).toBe(
      "Consentimento dos encarregados de educação",
    );
  });
});
