import { type FormEvent, useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmailField, Field } from "../../components/field.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { useT } from "../../i18n/intl.tsx";
import { useInviteTeacher } from "./api.ts";

/**
 * "Invite a teacher" on the admin's Users screen: the way teacher accounts are made when
 * TEACHER_SIGNUP=closed (it works under the other settings too). The person registers with the
 * invited address and becomes a teacher once it is verified.
 */
export function InviteTeacher() {
  const form = useFormFields({ name: "", email: "" });
  const [notice, setNotice] = useState("");
  const inviting = useInviteTeacher();
  const { t } = useT();

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    setNotice("");
    inviting.mutate(form.values, {
      onSuccess: (invitation) => {
        setNotice(`${t("admin.invite.sent")} (${invitation.email})`);
        form.setValues({ name: "", email: "" });
      },
      onError: form.refused,
    });
  }

  return (
    <Card title={t("admin.invite.title")}>
      <p>{t("admin.invite.text")}</p>
      <form className="admin-filters" onSubmit={submit} noValidate>
        <Field label={t("admin.invite.name")} maxLength={100} {...form.field("name")} />
        <EmailField label={t("admin.invite.email")} autoComplete="off" {...form.field("email")} />
        <div className="admin-filters-actions">
          <Button type="submit" loading={inviting.isPending}>
            {t("admin.invite.send")}
          </Button>
        </div>
      </form>
      {form.message ? <Alert tone="error">{form.message}</Alert> : null}
      <Alert tone="success">{notice}</Alert>
    </Card>
  );
}
