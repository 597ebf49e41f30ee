import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/client.ts";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { ScrollRegion } from "../../components/scroll-region.tsx";
import { useT } from "../../i18n/intl.tsx";

/**
 * Issue 32, on the evaluation page: how teachers judged the risk flags of each model version
 * (admins: every class; a teacher: the classes they teach). "Useful" is the share acknowledged.
 */
export default function FlagSummaryCard() {
  const { intl, t } = useT();
  // The share of judged flags acknowledged, whole percent ("67%"); a dash while none is judged.
  const percent = (share: number | null) =>
    share === null ? "—" : intl.formatNumber(share, { style: "percent", maximumFractionDigits: 0 });
  const summary = useQuery({
    queryKey: ["evaluation", "flags"],
    queryFn: ({ signal }) => call("GET /api/evaluation/flags", undefined, { signal }),
  });
  return (
    <Card title={t("flags.summary.title")}>
      <QueryView query={summary} loading={t("flags.summary.loading")}>
        {(data) =>
          data.versions.length === 0 ? (
            <EmptyState title={t("flags.summary.empty")}>{t("flags.summary.emptyHint")}</EmptyState>
          ) : (
            <ScrollRegion className="flag-summary-wrap" label={t("flags.summary.region")}>
              <table className="table">
                <caption className="visually-hidden">{t("flags.summary.caption")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("flags.summary.version")}</th>
                    <th scope="col">{t("flags.summary.judged")}</th>
                    <th scope="col">{t("flags.summary.acknowledged")}</th>
                    <th scope="col">{t("flags.summary.notUseful")}</th>
                    <th scope="col">{t("flags.summary.incorrect")}</th>
                    <th scope="col">{t("flags.summary.useful")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.versions.map((v) => (
                    <tr key={v.modelVersion}>
                      <th scope="row">{v.modelVersion}</th>
                      <td>{v.judged}</td>
                      <td>{v.acknowledged}</td>
                      <td>{v.notUseful}</td>
                      <td>{v.incorrect}</td>
                      <td>{percent(v.usefulShare)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )
        }
      </QueryView>
    </Card>
  );
}
