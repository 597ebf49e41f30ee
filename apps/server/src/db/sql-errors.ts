// Database errors told apart by their SQLSTATE code (PostgreSQL's and PGlite's errors both carry
// it as `code`), never by their message text, which changes with the server's language and version.
export const sqlStates = {
  uniqueViolation: "23505",
  undefinedTable: "42P01",
} as const;

export function hasSqlState(error: unknown, state: (typeof sqlStates)[keyof typeof sqlStates]) {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === state
  );
}
