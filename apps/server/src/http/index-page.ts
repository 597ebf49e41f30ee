import type { Locale } from "@gradecast/contract/locale-tags";

/**
 * The web app's page as this deployment serves it: `<html>` names DEFAULT_LOCALE in `lang` and
 * `data-default-locale`, so the page's first paint speaks the school's language for a browser
 * that asks for none the app has, with no extra request before it.
 */
export function indexPage(html: string, defaultLocale: Locale): string {
  return html.replace(
    /<html lang="[^"]*">/,
    `<html lang="${defaultLocale}" data-default-locale="${defaultLocale}">`,
  );
}
