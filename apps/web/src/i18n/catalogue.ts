import type { Locale } from "@gradecast/contract/locale-tags";
import type { Messages } from "./types.ts";

/** Each language is its own chunk, fetched when the page first speaks it. */
const loaders: Record<Locale, () => Promise<{ default: Messages }>> = {
  en: () => import("./catalogue-en.ts"),
  "pt-PT": () => import("./catalogue-pt-PT.ts"),
};

const loaded = new Map<Locale, Promise<Messages>>();

export function loadMessages(locale: Locale): Promise<Messages> {
  let messages = loaded.get(locale);
  if (!messages) {
    messages = loaders[locale]().then((m) => m.default);
    // A failed fetch (a new deployment, the network) is tried again on the next switch.
    messages.catch(() => loaded.delete(locale));
    loaded.set(locale, messages);
  }
  return messages;
}
