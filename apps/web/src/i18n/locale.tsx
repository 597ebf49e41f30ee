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
import { api, setRequestLanguage } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Spinner } from "../components/spinner.tsx";
import { loadMessages } from "./catalogue.ts";
import { IntlProvider } from "./intl.tsx";
import type { Messages } from "./types.ts";

// The language the page speaks (issue 33): the signed-in person's setting (users.locale), else
// the choice made on this device before signing in (localStorage), else the browser's languages,
// else English. Switching re-renders the page in place, sets <html lang>, and API calls then send
// it as Accept-Language so the server's messages follow.

/** A choice made on the public pages, before there is an account to keep it. */
export const localeKey = "gradecast:locale";
export const defaultLocale: Locale = "en";

function isLocale(value: unknown): value is Locale {
  return (locales as readonly unknown[]).includes(value);
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

export function browserLocale(): Locale {
  const languages =
    typeof navigator === "undefined"
      ? []
      : navigator.languages?.length
        ? navigator.languages
        : [navigator.language];
  return negotiateLocale(languages.filter(Boolean).join(","), defaultLocale);
}

export interface LocaleValue {
  /** The language the page speaks now. */
  locale: Locale;
  /** The person's own choice; null follows the browser. */
  choice: Locale | null;
  /** Stores the choice: on the account when signed in, and on this device. */
  choose(locale: Locale | null): Promise<void>;
}

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
  const choice = user?.locale ?? stored;
  const locale = choice ?? browserLocale();
  const [shown, setShown] = useState<{ locale: Locale; messages: Messages } | null>(() => {
    const messages = catalogues?.[locale];
    return messages ? { locale, messages } : null;
  });
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    const ready = catalogues?.[locale];
    if (ready) {
      setShown({ locale, messages: ready });
      return;
    }
    let live = true;
    setFailed(false);
    // Until the new language arrives the page keeps speaking the previous one.
    loadMessages(locale).then(
      (messages) => {
        if (live) setShown({ locale, messages });
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [locale, catalogues, attempt]);

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
    },
    [user, setUser],
  );

  const value = useMemo<LocaleValue>(
    () => ({ locale: shown?.locale ?? locale, choice, choose }),
    [shown, locale, choice, choose],
  );

  if (!shown) {
    if (failed) {
      const text = failedText[locale];
      return (
        <div className="spinner-block spinner-page" role="alert">
          <p>{text.message}</p>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => setAttempt((n) => n + 1)}
          >
            {text.retry}
          </button>
        </div>
      );
    }
    return <Spinner label={loadingLabel[locale]} className="spinner-page" />;
  }
  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider locale={shown.locale} messages={shown.messages}>
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}
