import { alertMessages } from "@gradecast/contract/alerts";
import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { call } from "../api/client.ts";
import { Alert } from "../components/alert.tsx";
import { AuthCard } from "../components/auth-card.tsx";
import { Button } from "../components/button.tsx";
import { errorMessage } from "../components/error-state.tsx";
import { Spinner } from "../components/spinner.tsx";

/**
 * The target of the digest's unsubscribe link: /unsubscribe?token=… One click: opening the link
 * turns the digest off (the token is signed; no sign-in). The page says what happened and how to
 * turn digests on again. (Link scanners that only fetch the page run no script: they change
 * nothing.)
 */
export default function Unsubscribe() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const unsubscribe = useMutation({
    mutationFn: () => call("POST /api/unsubscribe", { body: { token } }),
  });
  const { mutate, isIdle } = unsubscribe;
  useEffect(() => {
    if (token && isIdle) mutate();
  }, [token, isIdle, mutate]);

  return (
    <AuthCard title="Email digest">
      {!token ? (
        <Alert tone="error">
          <p>This unsubscribe link is incomplete. Open the link from the email again.</p>
        </Alert>
      ) : unsubscribe.isSuccess ? (
        <Alert tone="success">
          <p>{alertMessages.unsubscribed}</p>
        </Alert>
      ) : unsubscribe.isError ? (
        <>
          <Alert tone="error">
            <p>{errorMessage(unsubscribe.error)}</p>
          </Alert>
          <Button variant="secondary" onClick={() => unsubscribe.mutate()}>
            Try again
          </Button>
        </>
      ) : (
        <Spinner label="Turning the digest off..." />
      )}
      <p>
        <Link to="/login">Log in</Link> to choose daily, weekly or no digest on your Profile page.
      </p>
    </AuthCard>
  );
}
