import type { Band } from "@gradecast/contract/score";
import type { PageIntl } from "../../i18n/intl.tsx";

/** The band's message (SPEC's three) in the page's language. */
export const bandKeys: Record<Band, string> = {
  improve: "prediction.band.improve",
  good: "prediction.band.good",
  congratulations: "prediction.band.congratulations",
};

/**
 * A prediction's message as the page says it: English shows the server's own text (SPEC's, byte
 * for byte); another language its words for the same band (the server writes it in English).
 */
export function bandMessage(intl: PageIntl, band: Band, serverMessage: string): string {
  return intl.locale === "en" ? serverMessage : intl.formatMessage({ id: bandKeys[band] });
}
