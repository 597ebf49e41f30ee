import type { Locale } from "@gradecast/contract/locale-tags";
import { type ChangeEvent, useState } from "react";
import { useIntl } from "../i18n/intl.tsx";
import { useLocaleChoice } from "../i18n/locale.tsx";
import { Select } from "./select.tsx";

// The language choice (issue 33): on the profile it is the account's setting (PUT
// /api/me/locale); on the public pages, before there is an account, this device's. Each language
// is named in itself, whatever the page speaks.
const names: Record<Locale, string> = { en: "English", "pt-PT": "Português" };

export function LanguageChoice({ className }: { className?: string }) {
  const intl = useIntl();
  const { choice, choose } = useLocaleChoice();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  async function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const value = event.target.value;
    setBusy(true);
    setError("");
    try {
      await choose(value === "en" || value === "pt-PT" ? value : null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Select
      className={className}
      label={intl.formatMessage({ id: "language.label" })}
      value={choice ?? ""}
      onChange={onChange}
      disabled={busy}
      error={error || undefined}
      options={[
        { value: "", label: intl.formatMessage({ id: "language.followBrowser" }) },
        { value: "en", label: names.en },
        { value: "pt-PT", label: names["pt-PT"] },
      ]}
    />
  );
}
