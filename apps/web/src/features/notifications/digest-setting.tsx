import type { DigestChoice } from "@gradecast/contract/alerts";
import { OutcomeAlert } from "../../components/alert.tsx";
import { Card } from "../../components/card.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { Select } from "../../components/select.tsx";
import { useDigest, useSetDigest } from "./api.ts";

const options = [
  { value: "weekly", label: "Weekly (Mondays)" },
  { value: "daily", label: "Daily" },
  { value: "off", label: "Off: no digest emails" },
];

/** The email digest choice on the Profile page (issue 32). */
export default function DigestSetting() {
  const digest = useDigest();
  const set = useSetDigest();
  return (
    <Card title="Email digest">
      <QueryView query={digest} loading="Loading your digest setting...">
        {(data) => (
          <>
            <Select
              label="Send me a digest of my notifications"
              hint="It lists students who crossed into or out of risk, follow-ups falling due and outcomes recorded. Each email has a one-click unsubscribe link."
              options={options}
              value={data.digest}
              disabled={set.isPending}
              error={set.isError ? errorMessage(set.error) : undefined}
              onChange={(e) => set.mutate(e.target.value as DigestChoice)}
            />
            {set.isSuccess ? (
              <OutcomeAlert outcome={{ ok: true, text: "Your digest setting was saved." }} />
            ) : null}
          </>
        )}
      </QueryView>
    </Card>
  );
}
