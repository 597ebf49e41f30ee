// Every record's id is a UUID. One test of it: the server answers a malformed id with 404 or
// 400 before any query (never a database error), and schemas use the pattern, so the API
// document shows it.
export const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isId(text: string): boolean {
  return idPattern.test(text);
}
