import { type ClassView, joinCodeLength } from "@gradecast/contract/classes";
import { type FormEvent, useState } from "react";
import { useSession } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { Field } from "../../components/field.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { useT } from "../../i18n/intl.tsx";
import {
  useAcceptInvitation,
  useClasses,
  useDeclineInvitation,
  useJoinClass,
  useLeaveClass,
  useMyInvitations,
} from "./api.ts";
import "./classes.css";

function useText() {
  const { intl, t } = useT();
  return {
    t,
    subject: (subject: ClassView["subject"]) =>
      intl.formatMessage({ id: `questionnaire.subject.option.${subject}` }),
  };
}

/** A class as the student sees it in a list: name, subject, year and its teachers. */
function ClassLine({
  of,
}: {
  of: Pick<ClassView, "name" | "subject" | "year"> & { teachers: readonly { name: string }[] };
}) {
  const { subject } = useText();
  return (
    <span>
      <strong>{of.name}</strong> · {subject(of.subject)} · {of.year}
      {of.teachers.length > 0 ? (
        <span className="muted"> · {of.teachers.map((t) => t.name).join(", ")}</span>
      ) : null}
    </span>
  );
}

/**
 * "Join a class" on the student dashboard: a verified student types the code their teacher gave
 * them, and sees the classes they are in. Shown to students only (nobody else can join).
 */
export function JoinClass() {
  const { user } = useSession();
  if (user?.role !== "student") return null;
  return (
    <>
      {user.emailVerified ? <ClassInvitations /> : null}
      <JoinClassBox verified={user.emailVerified} />
    </>
  );
}

/**
 * The classes that invited the student (issue 26): nothing is shared with a class until they
 * accept; Decline removes the invitation. Shown only while some are waiting.
 */
function ClassInvitations() {
  const invitations = useMyInvitations(true);
  const accepting = useAcceptInvitation();
  const declining = useDeclineInvitation();
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const { t } = useText();
  const items = invitations.data?.items ?? [];
  if (items.length === 0 && !notice) return null;

  const answer = (classId: string, name: string, accept: boolean) => {
    setNotice(null);
    const done = {
      onSuccess: () =>
        setNotice({
          tone: "success" as const,
          text: t(accept ? "join.invitations.accepted" : "join.invitations.declined", { name }),
        }),
      onError: (error: unknown) => setNotice({ tone: "error", text: errorMessage(error) }),
    };
    if (accept) accepting.mutate(classId, done);
    else declining.mutate(classId, done);
  };
  const busy = accepting.isPending || declining.isPending;

  return (
    <Card title={t("join.invitations.title")} className="class-invitations">
      {items.length > 0 ? (
        <>
          <p>{t("join.invitations.intro")}</p>
          <ul className="list invitation-list">
            {items.map((i) => (
              <li key={i.classId} className="invitation-item">
                <ClassLine of={i} />
                <span className="actions">
                  <Button
                    disabled={busy}
                    aria-label={t("join.invitations.acceptLabel", { name: i.name })}
                    onClick={() => answer(i.classId, i.name, true)}
                  >
                    {t("join.invitations.accept")}
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={busy}
                    aria-label={t("join.invitations.declineLabel", { name: i.name })}
                    onClick={() => answer(i.classId, i.name, false)}
                  >
                    {t("join.invitations.decline")}
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
    </Card>
  );
}

function JoinClassBox({ verified }: { verified: boolean }) {
  const classes = useClasses();
  const joining = useJoinClass();
  const leaving = useLeaveClass();
  const [leave, setLeave] = useState<ClassView | null>(null);
  const form = useFormFields({ code: "" });
  const [notice, setNotice] = useState("");
  const { t } = useText();

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    setNotice("");
    if (form.values.code.trim() === "") {
      form.setErrors({ code: t("join.codeRequired") });
      return;
    }
    joining.mutate(form.values.code, {
      onSuccess: (result) => {
        setNotice(`${result.message} ${result.class.name} (${result.class.year})`);
        form.setValues({ code: "" });
      },
      onError: form.refused,
    });
  }

  return (
    <Card title={t("join.title")} className="join-class">
      {verified ? (
        <form className="join-class-form" onSubmit={submit} noValidate>
          <Field
            label={t("join.code")}
            hint={t("join.codeHint", { length: joinCodeLength })}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            {...form.field("code")}
          />
          <Button type="submit" loading={joining.isPending}>
            {t("join.submit")}
          </Button>
        </form>
      ) : (
        <p>{t("join.verifyFirst")}</p>
      )}
      {form.message ? <Alert tone="error">{form.message}</Alert> : null}
      <Alert tone="success">{notice}</Alert>
      {classes.data && classes.data.length > 0 ? (
        <div>
          <h3 className="join-class-heading">{t("join.yours")}</h3>
          <ul className="list">
            {classes.data.map((c) => (
              <li key={c.id} className="invitation-item">
                <ClassLine of={c} />
                <Button
                  variant="ghost"
                  aria-label={t("join.leaveLabel", { name: c.name })}
                  onClick={() => {
                    setNotice("");
                    setLeave(c);
                  }}
                >
                  {t("join.leave")}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {leave ? (
        <ConfirmDialog
          title={t("join.leave.title", { name: leave.name })}
          confirmLabel={t("join.leave.confirm")}
          variant="danger"
          onConfirm={async () => {
            await leaving.mutateAsync(leave.id);
            setNotice(t("join.left", { name: leave.name }));
            setLeave(null);
          }}
          onClose={() => setLeave(null)}
        >
          <p>{t("join.leave.body")}</p>
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}
