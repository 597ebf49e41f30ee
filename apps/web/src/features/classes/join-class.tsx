import { classMessages, joinCodeLength, subjectLabels } from "@gradecast/contract/classes";
import { type FormEvent, useState } from "react";
import { useSession } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { Field } from "../../components/field.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { useClasses, useJoinClass } from "./api.ts";
import "./classes.css";

/**
 * "Join a class" on the student dashboard: a verified student types the code their teacher gave
 * them, and sees the classes they are in. Shown to students only (nobody else can join).
 */
export function JoinClass() {
  const { user } = useSession();
  if (user?.role !== "student") return null;
  return <JoinClassBox verified={user.emailVerified} />;
}

function JoinClassBox({ verified }: { verified: boolean }) {
  const classes = useClasses();
  const joining = useJoinClass();
  const form = useFormFields({ code: "" });
  const [notice, setNotice] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    form.clear();
    setNotice("");
    if (form.values.code.trim() === "") {
      form.setErrors({ code: classMessages.joinCodeRequired });
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
    <Card title="Join a class" className="join-class">
      {verified ? (
        <form className="join-class-form" onSubmit={submit} noValidate>
          <Field
            label="Join code"
            hint={`The ${joinCodeLength} letters and digits your teacher gave you. Codes never use 0, 1, I, L or O.`}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            {...form.field("code")}
          />
          <Button type="submit" loading={joining.isPending}>
            Join
          </Button>
        </form>
      ) : (
        <p>Verify your email address first: then you can join your classes.</p>
      )}
      {form.message ? <Alert tone="error">{form.message}</Alert> : null}
      <Alert tone="success">{notice}</Alert>
      {classes.data && classes.data.length > 0 ? (
        <div>
          <h3 className="join-class-heading">Your classes</h3>
          <ul className="list">
            {classes.data.map((c) => (
              <li key={c.id}>
                <strong>{c.name}</strong> · {subjectLabels[c.subject]} · {c.year}
                {c.teachers.length > 0 ? (
                  <span className="muted"> · {c.teachers.map((t) => t.name).join(", ")}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
