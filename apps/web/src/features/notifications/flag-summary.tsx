import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/client.ts";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { ScrollRegion } from "../../components/scroll-region.tsx";

const percent = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)}%`);

/**
 * Issue 32, on the evaluation page: how teachers judged the risk flags of each model version
 * (admins: every class; a teacher: the classes they teach). "Useful" is the share acknowledged.
 */
export default function FlagSummaryCard() {
  const summary = useQuery({
    queryKey: ["evaluation", "flags"],
    queryFn: ({ signal }) => call("GET /api/evaluation/flags", undefined, { signal }),
  });
  return (
    <Card title="Teachers' judgement of the flags">
      <QueryView query={summary} loading="Loading the teachers' judgements...">
        {(data) =>
          data.versions.length === 0 ? (
            <EmptyState title="No flag judged yet.">
              Teachers judge each at-risk flag on their class's page: acknowledged, not useful or
              incorrectly flagged.
            </EmptyState>
          ) : (
            <ScrollRegion className="flag-summary-wrap" label="Judgements per model version">
              <table className="table">
                <caption className="visually-hidden">Judgements of flags per model version</caption>
                <thead>
                  <tr>
                    <th scope="col">Model version</th>
                    <th scope="col">Judged</th>
                    <th scope="col">Acknowledged</th>
                    <th scope="col">Not useful</th>
                    <th scope="col">Incorrectly flagged</th>
                    <th scope="col">Judged useful</th>
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
