import { useIntl } from "../i18n/intl.tsx";
import { Spinner } from "./spinner.tsx";

/**
 * The whole page waits (the session being read, a page's code on its way): the spinner in the
 * page's language. Before any catalogue is there, the locale provider shows its own.
 */
export function PageLoading() {
  const intl = useIntl();
  return <Spinner label={intl.formatMessage({ id: "common.loading" })} className="spinner-page" />;
}
