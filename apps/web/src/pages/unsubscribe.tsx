import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { call } from "../api/client.ts";
import { Alert } from "../components/alert.tsx";
import { AuthCard } from "../components/auth-card.tsx";
import { Button } from "../components/button.tsx";
import { errorMessage } from "../components/error-state.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useT } from "../i18n/intl.tsx";

/**
 * The target of the digest's unsubscribe link: /unsubscribe?token=… One click: opening the link
 * turns the digest off (the token is signed; no sign-in). The page says what happened and how to
 * turn digests on again. (Link scanners that only fetch the page run no script: they change
 * nothing.)
 */
export default function Unsubscribe() {
  const [params] = useSearchParams();
  const { intl, t } = useT();
  const token = params.get("token") ?? "";
  const unsubscribe = useMutation({
    mutationFn: () => call("POST /api/unsubscribe", { body: { token } }),
  });
  const { mutate, isIdle } = unsubscribe;
  useEffect(() => {
    if (token && isIdle) mutate();
  }, [token, isIdle, mutate]);

  return (
    <AuthCard title={t("notifications.digest.title")}>
      {!token ? (
        <Alert tone="error">
          <p>{t("notifications.unsubscribe.incomplete")}</p>
        </Alert>
      ) : unsubscribe.isSuccess ? (
        <Alert tone="success">
          <p>{t("notifications.unsubscribe.done")}</p>
        </Alert>
      ) : unsubscribe.isError ? (
        <>
          <Alert tone="error">
            <p>{errorMessage(unsubscribe.error)}</p>
          </Alert>
          <Button variant="secondary" onClick={() => unsubscribe.mutate()}>
            {t("notifications.unsubscribe.retry")}
          </Button>
        </>
      ) : (
        <Spinner label={t("notifications.unsubscribe.turningOff")} />
      )}
      <p>
        {intl.formatMessage(
          { id: "notifications.unsubscribe.logIn" },
          { link: (chunks) => <Link to="/login">{chunks}</Link> },
        )}
      </p>
    </AuthCard>
  );
}
