import type { Locale } from "@gradecast/contract/locale-tags";
import type { Messages } from "./types.ts";

/**
 * Each language is two chunks: "public", the areas of the pages seen before signing in (the first
 * screen loads only these), and "app", every other area (signed-in pages, registration, the
 * contract's shared text), fetched when a page that needs it is first shown.
 */
export type CataloguePart = "public" | "app";
export const catalogueParts: readonly CataloguePart[] = ["public", "app"];

const loaders: Record<Locale, Record<CataloguePart, () => Promise<{ default: Messages }>>> = {
  en: {
    public: () => import("./catalogue-en.ts"),
    app: () => import("./catalogue-en-app.ts"),
  },
  "pt-PT": {
    public: () => import("./catalogue-pt-PT.ts"),
    app: () => import("./catalogue-pt-PT-app.ts"),
  },
};

const loaded = new Map<string, Promise<Messages>>();

function loadPart(locale: Locale, part: CataloguePart): Promise<Messages> {
  const key = `${locale}:${part}`;
  let messages = loaded.get(key);
  if (!messages) {
    messages = loaders[locale][part]().then((m) => m.default);
    // A failed fetch (a new deployment, the network) is tried again on the next attempt.
    messages.catch(() => loaded.delete(key));
    loaded.set(key, messages);
  }
  return messages;
}

/** The messages of the given parts of one language, merged. */
export async function loadMessages(
  locale: Locale,
  parts: readonly CataloguePart[],
): Promise<Messages> {
  const all = await Promise.all(parts.map((part) => loadPart(locale, part)));
  return Object.assign({}, ...all) as Messages;
}
