// The languages Gradecast speaks (issue 33). A person's setting wins, else the browser's
// Accept-Language, else the deployment's DEFAULT_LOCALE. "pt-PT" is European Portuguese: a
// browser asking for plain "pt" gets it; one asking for "pt-BR" gets it too (the only Portuguese
// there is), but its plural rules are never assumed, as messages are formatted as pt-PT.
// This file has no zod, so the web app's first screen can negotiate without it.
export const locales = ["en", "pt-PT"] as const;
export type Locale = (typeof locales)[number];
/** The first supported language of an Accept-Language header (by its q weights), else fallback. */
export function negotiateLocale(
  acceptLanguage: string | null | undefined,
  fallback: Locale,
): Locale {
  if (!acceptLanguage) return fallback;
  const ranked = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === "*") return fallback;
    const language = tag.split("-")[0];
    if (language === "pt") return "pt-PT";
    if (language === "en") return "en";
  }
  return fallback;
}
