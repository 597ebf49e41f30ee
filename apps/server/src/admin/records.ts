import type { AdminRecordsQuery } from "@gradecast/contract/prediction";
import type { OwnedRecordsQuery } from "../db/rows.ts";
import type { Services } from "../services.ts";

// GET /api/students and GET /api/predictions (admins only, access table): every user's stored
// records, or one user's, newest first, each as its owner reads it with the owner's id beside.

export function adminRecords<Row extends { userId: string }, View>(
  list: (db: Services["db"], options: OwnedRecordsQuery) => Promise<Row[]>,
  view: (row: Row) => View,
): (services: Services, query: AdminRecordsQuery) => Promise<(View & { userId: string })[]> {
  return async (services, { userId, limit }) => {
    const rows = await list(services.db, { userId, limit });
    return rows.map((row) => ({ ...view(row), userId: row.userId }));
  };
}
