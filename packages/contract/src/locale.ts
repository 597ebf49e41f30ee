import { z } from "zod";
import { locales } from "./locale-tags.ts";

// The languages Gradecast speaks (issue 33): the list and the negotiation are in locale-tags.ts
// (no zod there, for the web app's first screen); the schemas of the API are here.
export { type Locale, locales, negotiateLocale } from "./locale-tags.ts";

export const localeSchema = z.enum(locales, { error: "Choose English or Português." });

/** PUT /api/me/locale: null follows the browser again. */
export const setLocaleSchema = z.object({ locale: localeSchema.nullable() });
