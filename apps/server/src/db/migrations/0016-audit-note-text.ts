import { type Kysely, sql } from "kysely";

// Intervention notes are for the class's teachers only (issue 20), and admins read the audit
// log: the entries written before this release copied each note's text and dates into the log.
// They keep who wrote a note about which student in which class (the note's id, the student),
// and lose what it said. Nothing can bring the text back, so `down` leaves them as they are.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update audit_log
    set details = details - 'action' - 'doneOn' - 'followUpOn'
    where action = 'class.note_added'`.execute(db);
}

export async function down(): Promise<void> {}
