import type { User } from "@gradecast/contract/auth";
import { type Locale, locales, negotiateLocale } from "@gradecast/contract/locale-tags";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { Outlet } from "react-router";
import { api, setRequestLanguage } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Spinner } from "../components/spinner.tsx";
import { type CataloguePart, catalogueParts, loadMessages } from "./catalogue.ts";
import { IntlProvider } from "./intl.tsx";
import type { Messages } from "./types.ts";

// The language the page speaks (issue 33): the signed-in person's setting (users.locale), else
// the choice made on this device before signing in (localStorage), else the language of the
// emailed link that opened the page (`?lang=`: a guardian's page speaks the email's language),
// else the browser's languages, else the deployment's DEFAULT_LOCALE (the server writes it on
// the page's <html>), else English.
// Switching re-renders the page in place, sets <html lang>, and API calls then send it as
// Accept-Language so the server's messages follow.

/** A choice made on the public pages, before there is an account to keep it. */
export const localeKey = "gradecast:locale";

function isLocale(value: unknown): value is Locale {
  return (locales as readonly unknown[]).includes(value);
}

/** The deployment's language: `<html data-default-locale>` as the server wrote it, else English. */
export function deploymentLocale(): Locale {
  const written =
    typeof document === "undefined" ? undefined : document.documentElement.dataset.defaultLocale;
  return isLocale(written) ? written : "en";
}

export function storedLocale(): Locale | null {
  try {
    const value = localStorage.getItem(localeKey);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

function storeLocale(locale: Locale | null): void {
  try {
    if (locale) localStorage.setItem(localeKey, locale);
    else localStorage.removeItem(localeKey);
  } catch {
    // Storage refused (private mode): the choice lasts as long as the page.
  }
}

/** The language an emailed link names (`?lang=pt-PT`), read once when the page opens. */
function linkLocale(): Locale | null {
  if (typeof window === "undefined") return null;
  const value = new URLSearchParams(window.location.search).get("lang");
  return isLocale(value) ? value : null;
}

export function browserLocale(): Locale {
  const languages =
    typeof navigator === "undefined"
      ? []
      : navigator.languages?.length
        ? navigator.languages
        : [navigator.language];
  return negotiateLocale(languages.filter(Boolean).join(","), deploymentLocale());
}

export interface LocaleValue {
  /** The language the page speaks now. */
  locale: Locale;
  /** The person's own choice; null follows the browser. */
  choice: Locale | null;
  /** Stores the choice: on the account when signed in, and on this device. */
  choose(locale: Locale | null): Promise<void>;
}

interface PartsValue {
  /** The catalogue parts the page's messages hold now. */
  has(part: CataloguePart): boolean;
  /** Asks for a part: the page's language loads it and merges it in. */
  request(part: CataloguePart): void;
  /** The last fetch failed; `retry` tries again. */
  failed: boolean;
  retry(): void;
  locale: Locale;
}

const PartsContext = createContext<PartsValue | null>(null);

const LocaleContext = createContext<LocaleValue | null>(null);

export function useLocaleChoice(): LocaleValue {
  const value = useContext(LocaleContext);
  if (!value) throw new Error("useLocaleChoice outside LocaleProvider");
  return value;
}

const loadingLabel: Record<Locale, string> = { en: "Loading...", "pt-PT": "A carregar..." };
const failedText: Record<Locale, { message: string; retry: string }> = {
  en: { message: "The page could not load its text.", retry: "Try again" },
  "pt-PT": { message: "Não foi possível carregar o texto da página.", retry: "Tentar de novo" },
};

export interface LocaleProviderProps {
  children: ReactNode;
  /** Catalogues already at hand (tests): used at once, without a fetch. */
  catalogues?: Partial<Record<Locale, Messages>>;
}

export function LocaleProvider({ children, catalogues }: LocaleProviderProps) {
  const { user, setUser } = useSession();
  const [stored, setStored] = useState(storedLocale);
  // The link's language stands as this visit's choice (the switcher shows it) until one is made.
  const [linked, setLinked] = useState(linkLocale);
  const choice = user?.locale ?? stored ?? linked;
  const locale = choice ?? browserLocale();
  // The first screen needs only the public part; a page that needs more asks (RequireMessages).
  const [parts, setParts] = useState<readonly CataloguePart[]>(["public"]);
  const [shown, setShown] = useState<Shown | null>(() => {
    const messages = catalogues?.[locale];
    return messages ? { locale, parts: catalogueParts, messages } : null;
  });
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    const ready = catalogues?.[locale];
    if (ready) {
      setShown({ locale, parts: catalogueParts, messages: ready });
      return;
    }
    let live = true;
    setFailed(false);
    // Until the new language (or part) arrives the page keeps speaking what it has.
    loadMessages(locale, parts).then(
      (messages) => {
        if (live) setShown({ locale, parts, messages });
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [locale, parts, catalogues, attempt]);

  useEffect(() => {
    if (!shown) return;
    document.documentElement.lang = shown.locale;
    setRequestLanguage(shown.locale);
  }, [shown]);

  const choose = useCallback(
    async (next: Locale | null) => {
      if (user) {
        const updated = await api<User>("PUT", "/api/me/locale", { locale: next });
        setUser(updated);
      }
      storeLocale(next);
      setStored(next);
      setLinked(null);
    },
    [user, setUser],
  );

  const value = useMemo<LocaleValue>(
    () => ({ locale: shown?.locale ?? locale, choice, choose }),
    [shown, locale, choice, choose],
  );

  const partsValue = useMemo<PartsValue>(
    () => ({
      has: (part) => !!shown && shown.parts.includes(part),
      request: (part) => setParts((now) => (now.includes(part) ? now : [...now, part])),
      failed,
      retry: () => setAttempt((n) => n + 1),
      locale,
    }),
    [shown, locale, failed],
  );

  if (!shown) {
    if (failed) {
      return <LoadFailed locale={locale} onRetry={partsValue.retry} />;
    }
    return <Spinner label={loadingLabel[locale]} className="spinner-page" />;
  }
  return (
    <LocaleContext.Provider value={value}>
      <PartsContext.Provider value={partsValue}>
        <IntlProvider locale={shown.locale} messages={shown.messages}>
          {children}
        </IntlProvider>
      </PartsContext.Provider>
    </LocaleContext.Provider>
  );
}

interface Shown {
  locale: Locale;
  parts: readonly CataloguePart[];
  messages: Messages;
}

function LoadFailed({ locale, onRetry }: { locale: Locale; onRetry(): void }) {
  const text = failedText[locale];
  return (
    <div className="spinner-block spinner-page" role="alert">
      <p>{text.message}</p>
      <button type="button" className="btn btn-secondary" onClick={onRetry}>
        {text.retry}
      </button>
    </div>
  );
}

/**
 * Shows its children once the page's language has the given catalogue part (the signed-in
 * pages, registration: "app"), loading it first, with a spinner in the page's language, and a
 * retry if the fetch fails. The first screen never pays for the text of the pages after it.
 */
export function RequireMessages({ part, children }: { part: CataloguePart; children: ReactNode }) {
  const parts = useContext(PartsContext);
  if (!parts) throw new Error("RequireMessages outside LocaleProvider");
  const ready = parts.has(part);
  const { request } = parts;
  useEffect(() => {
    if (!ready) request(part);
  }, [ready, request, part]);
  if (ready) return <>{children}</>;
  if (parts.failed) return <LoadFailed locale={parts.locale} onRetry={parts.retry} />;
  return <Spinner label={loadingLabel[parts.locale]} className="spinner-page" />;
}

/** A route around the pages that need the "app" part of the catalogue (router.tsx). */
export function AppMessagesRoute() {
  return (
    <RequireMessages part="app">
      <Outlet />
    </RequireMessages>
  );
}
