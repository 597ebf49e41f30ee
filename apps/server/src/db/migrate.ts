import { type Kysely, type Migration, Migrator, sql } from "kysely";
import * as initial from "./migrations/0001-initial.ts";
import * as analyticsRollups from "./migrations/0002-analytics-rollups.ts";
import * as reportNameStatistics from "./migrations/0003-report-name-statistics.ts";
import * as userChangeNotices from "./migrations/0004-user-change-notices.ts";
import * as reportNameLowercase from "./migrations/0005-report-name-lowercase.ts";
import * as sessionChangeNotices from "./migrations/0006-session-change-notices.ts";
import * as sessionDetails from "./migrations/0007-session-details.ts";
import * as mfaAndReauth from "./migrations/0008-mfa-and-reauth.ts";
import * as classes from "./migrations/0009-classes.ts";
import * as teacherInvitations from "./migrations/0010-teacher-invitations.ts";
import * as reportVisibility from "./migrations/0011-report-visibility.ts";
import * as predictionSetups from "./migrations/0012-prediction-setups.ts";
import * as classRisk from "./migrations/0013-class-risk.ts";
import * as reportListWalks from "./migrations/0015-report-list-walks.ts";
import * as auditNoteText from "./migrations/0016-audit-note-text.ts";
import * as emailedProofAddress from "./migrations/0017-emailed-proof-address.ts";
import * as recoveryCodeIds from "./migrations/0018-recovery-code-ids.ts";
import * as classInvitationConsent from "./migrations/0020-class-invitation-consent.ts";
import * as explanationShareTeachers from "./migrations/0021-explanation-share-teachers.ts";
import * as rosterEmailCounts from "./migrations/0022-roster-email-counts.ts";
import * as schoolFromConfiguration from "./migrations/0023-school-from-configuration.ts";
import * as schoolRecord from "./migrations/0024-school-record.ts";
import * as jobs from "./migrations/0025-jobs.ts";
import * as modelVersions from "./migrations/0026-model-versions.ts";
import * as dataRights from "./migrations/0027-data-rights.ts";
import * as consentOversight from "./migrations/0028-consent-oversight.ts";
import * as alerts from "./migrations/0029-alerts.ts";
import * as oidc from "./migrations/0030-oidc.ts";
import * as oneRoster from "./migrations/0031-oneroster.ts";
import * as accentFolding from "./migrations/0032-accent-folding.ts";
import * as userLocale from "./migrations/0033-user-locale.ts";
import * as optionalQuestions from "./migrations/0034-optional-questions.ts";
import * as alertBacklog from "./migrations/0035-alert-backlog.ts";
import type { DB } from "./schema.ts";
import { hasSqlState, sqlStates } from "./sql-errors.ts";

// Every migration of this build, by name; Kysely applies them in name order.
export const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-analytics-rollups": analyticsRollups,
  "0003-report-name-statistics": reportNameStatistics,
  "0004-user-change-notices": userChangeNotices,
  "0005-report-name-lowercase": reportNameLowercase,
  "0006-session-change-notices": sessionChangeNotices,
  "0007-session-details": sessionDetails,
  "0008-mfa-and-reauth": mfaAndReauth,
  "0009-classes": classes,
  "0010-teacher-invitations": teacherInvitations,
  "0011-report-visibility": reportVisibility,
  "0012-prediction-setups": predictionSetups,
  "0013-class-risk": classRisk,
  "0015-report-list-walks": reportListWalks,
  "0016-audit-note-text": auditNoteText,
  "0017-emailed-proof-address": emailedProofAddress,
  "0018-recovery-code-ids": recoveryCodeIds,
  "0020-class-invitation-consent": classInvitationConsent,
  "0021-explanation-share-teachers": explanationShareTeachers,
  "0022-roster-email-counts": rosterEmailCounts,
  "0023-school-from-configuration": schoolFromConfiguration,
  "0024-school-record": schoolRecord,
  "0025-jobs": jobs,
  "0026-model-versions": modelVersions,
  "0027-data-rights": dataRights,
  "0028-consent-oversight": consentOversight,
  "0029-alerts": alerts,
  "0030-oidc": oidc,
  "0031-oneroster": oneRoster,
  "0032-accent-folding": accentFolding,
  "0033-user-locale": userLocale,
  "0034-optional-questions": optionalQuestions,
  "0035-alert-backlog": alertBacklog,
};

/**
 * Applies every pending migration; safe to run at each start and from several instances.
 * `upTo` stops after that migration (tests build a database as an earlier release left it).
 */
export async function migrate(db: Kysely<DB>, upTo?: string): Promise<void> {
  if (!upTo && (await upToDate(db))) return;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  if (error) throw error;
}

/**
 * Whether the database has exactly this build's migrations applied: a later start then skips the
 * migrator's lock and table checks (about a second on a busy 2-core machine). Anything else (a
 * new database, a migration to run, one this build does not know) goes through the migrator.
 */
async function upToDate(db: Kysely<DB>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    const known = Object.keys(migrations);
    return rows.length === known.length && known.every((name) => applied.has(name));
  } catch (error) {
    if (hasSqlState(error, sqlStates.undefinedTable)) return false; // no migration table yet
    throw error;
  }
}
