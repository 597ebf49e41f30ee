import type { DigestChoice } from "@gradecast/contract/alerts";
import { OutcomeAlert } from "../../components/alert.tsx";
import { Card } from "../../components/card.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { Select } from "../../components/select.tsx";
import { useT } from "../../i18n/intl.tsx";
import { useDigest, useSetDigest } from "./api.ts";

/** The email digest choice on the Profile page (issue 32). */
export default function DigestSetting() {
  const digest = useDigest();
  const set = useSetDigest();
  const { t } = useT();
  const options = [
    { value: "weekly", label: t("notifications.digest.weekly") },
    { value: "daily", label: t("notifications.digest.daily") },
    { value: "off", label: t("notifications.digest.off") },
  ];
  return (
    <Card title={t("notifications.digest.title")}>
      <QueryView query={digest} loading={t("notifications.digest.loading")}>
        {(data) => (
          <>
            <Select
              label={t("notifications.digest.label")}
              hint={t("notifications.digest.hint")}
              options={options}
              value={data.digest}
              disabled={set.isPending}
              error={set.isError ? errorMessage(set.error) : undefined}
              onChange={(e) => set.mutate(e.target.value as DigestChoice)}
            />
            {set.isSuccess ? (
              <OutcomeAlert outcome={{ ok: true, text: t("notifications.digest.saved") }} />
            ) : null}
          </>
        )}
      </QueryView>
    </Card>
  );
}
