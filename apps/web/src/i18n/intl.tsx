import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { Locale } from "@gradecast/contract/locale-tags";
import { type FormatXMLElementFn, IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import { createContext, Fragment, type ReactNode, useCallback, useContext, useMemo } from "react";
import type { Messages } from "./types.ts";

// The page's messages, formatted by FormatJS's own ICU formatter (intl-messageformat: CLDR plural
// rules, numbers and dates through the platform's Intl). react-intl's provider and its other
// formatters (relative time, lists, display names, ranges) cost the first screen about 3.5 KB
// gzipped that it never uses, past its 100 KB budget; this is the part of its API the app uses:
// `useIntl().formatMessage({ id }, values)`. A missing key shows the key, as react-intl does.

export type MessageValues = Record<string, PrimitiveType>;
/** Values with elements: tags such as `<link>…</link>` given as functions, React nodes. */
export type RichValues = Record<string, PrimitiveType | ReactNode | FormatXMLElementFn<ReactNode>>;

export interface PageIntl {
  locale: Locale;
  formatMessage(descriptor: { id: string }, values?: MessageValues): string;
  formatMessage(descriptor: { id: string }, values: RichValues): ReactNode;
  /** 12.5 in English, 12,5 in Portuguese. */
  formatNumber(value: number, options?: Intl.NumberFormatOptions): string;
  /** 28/11/2026 in Portuguese, 11/28/2026 in American English, per the options. */
  formatDate(value: Date | number | string, options?: Intl.DateTimeFormatOptions): string;
}

const IntlContext = createContext<PageIntl | null>(null);

export function useIntl(): PageIntl {
  const intl = useContext(IntlContext);
  if (!intl) throw new Error("useIntl outside IntlProvider");
  return intl;
}

/**
 * The page's intl and `t(id, values)`, its plain-text message (the same function while the
 * language stays, so it can be a hook's dependency).
 */
export function useT() {
  const intl = useIntl();
  const t = useCallback(
    (id: string, values?: MessageValues) => intl.formatMessage({ id }, values),
    [intl],
  );
  return { intl, t };
}

export function IntlProvider({
  locale,
  messages,
  children,
}: {
  locale: Locale;
  messages: Messages;
  children: ReactNode;
}) {
  const intl = useMemo(() => createIntl(locale, messages), [locale, messages]);
  return <IntlContext.Provider value={intl}>{children}</IntlContext.Provider>;
}

/** The page's intl, or null outside a provider (a part rendered alone falls back to its own). */
export function useIntlOrNull(): PageIntl | null {
  return useContext(IntlContext);
}

/** One language's formatter over the given messages, as the provider gives it. */
export function createIntl(locale: Locale, messages: Messages): PageIntl {
  const formats = new Map<string, IntlMessageFormat>();
  return {
    locale,
    formatMessage({ id }: { id: string }, values?: RichValues): string & ReactNode {
      let format = formats.get(id);
      if (!format) {
        const message = (messages as Record<string, string | MessageFormatElement[]>)[id];
        if (message === undefined) {
          if (import.meta.env.DEV) console.error(`Missing message "${id}" in ${locale}`);
          return id;
        }
        format = new IntlMessageFormat(message, locale);
        formats.set(id, format);
      }
      const out = format.format<ReactNode>(values);
      if (!Array.isArray(out)) return String(out) as string & ReactNode;
      // Parts with elements: keyed so React can tell them apart.
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one message never reorder
      return out.map((part, i) => <Fragment key={i}>{part}</Fragment>) as unknown as string &
        ReactNode;
    },
    formatNumber: (value, options) => new Intl.NumberFormat(locale, options).format(value),
    formatDate: (value, options) =>
      new Intl.DateTimeFormat(locale, options).format(new Date(value)),
  } as PageIntl;
}
