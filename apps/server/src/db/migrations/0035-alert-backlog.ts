import { type Kysely, sql } from "kysely";

// Issue 29 (predicting must not slow down): a stored prediction made for a class moves the
// student's alert state after its batch has committed, not inside it (alerts/backlog.ts). The
// batch's insert statement also writes one row here naming its class predictions; the alert
// evaluation deletes the row in the transaction that moves the states. A row left by a crash
// (or a failed evaluation) is evaluated by the next sweep: no stored prediction goes without
// its alert. Prediction ids only: the predictions hold the person data, and a prediction erased
// meanwhile is simply not found.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table alert_backlog (
      id uuid primary key,
      prediction_ids uuid[] not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}
