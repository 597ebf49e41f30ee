import type { Locale } from "./locale.ts";

// The text shared by the server and the web app (issue 33), one ICU catalogue per language and
// area: packages/contract/src/locales/<locale>/<area>.json, flat keys "area.what", English first.
// Each catalogue is its own module, imported on demand, so a bundle holds a language only once
// it is asked for (the web's first screen carries no Portuguese). The server, which answers in
// every language at once, loads them all at start-up (`loadAllCatalogues`).

export const areas = [
  "messages",
  "fields",
  "questionnaire",
  "emails",
  "csv",
  "privacy",
  "audit",
  "risk",
] as const;
export type Area = (typeof areas)[number];

/** One area's messages: key → ICU message. */
export type Catalogue = Readonly<Record<string, string>>;

type Loader = () => Promise<{ default: Catalogue }>;

// Written out one import each (not built from a template) so bundlers split them by file.
const loaders: Record<Locale, Record<Area, Loader>> = {
  en: {
    messages: () => import("./locales/en/messages.json"),
    fields: () => import("./locales/en/fields.json"),
    questionnaire: () => import("./locales/en/questionnaire.json"),
    emails: () => import("./locales/en/emails.json"),
    csv: () => import("./locales/en/csv.json"),
    privacy: () => import("./locales/en/privacy.json"),
    audit: () => import("./locales/en/audit.json"),
    risk: () => import("./locales/en/risk.json"),
  },
  "pt-PT": {
    messages: () => import("./locales/pt-PT/messages.json"),
    fields: () => import("./locales/pt-PT/fields.json"),
    questionnaire: () => import("./locales/pt-PT/questionnaire.json"),
    emails: () => import("./locales/pt-PT/emails.json"),
    csv: () => import("./locales/pt-PT/csv.json"),
    privacy: () => import("./locales/pt-PT/privacy.json"),
    audit: () => import("./locales/pt-PT/audit.json"),
    risk: () => import("./locales/pt-PT/risk.json"),
  },
};

/** One area's catalogue in one language. */
export async function loadCatalogue(locale: Locale, area: Area): Promise<Catalogue> {
  return (await loaders[locale][area]()).default;
}

/** Several areas of one language merged into one catalogue (keys never clash: each has its area). */
export async function loadCatalogues(
  locale: Locale,
  wanted: readonly Area[] = areas,
): Promise<Catalogue> {
  const parts = await Promise.all(wanted.map((area) => loadCatalogue(locale, area)));
  return Object.assign({}, ...parts) as Catalogue;
}

/** Every area of every language: what the server holds. */
export async function loadAllCatalogues(): Promise<Record<Locale, Catalogue>> {
  const [en, pt] = await Promise.all([loadCatalogues("en"), loadCatalogues("pt-PT")]);
  return { en, "pt-PT": pt };
}
