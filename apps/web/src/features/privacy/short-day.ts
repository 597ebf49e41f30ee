import { useIntl } from "../../i18n/intl.tsx";

/** A day as the page's language writes it; English keeps the browser's own form. */
export function useShortDay(): (value: string | Date | null) => string {
  const intl = useIntl();
  return (value) => {
    if (!value) return "—";
    const date = new Date(value);
    return intl.locale === "en" ? date.toLocaleDateString() : intl.formatDate(date);
  };
}
