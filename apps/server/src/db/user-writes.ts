// Whether a statement may write to the users table: it names the table and a writing verb.
// Cautious on purpose (a read that names a column "users" counts too): a false alarm only
// empties the cache of users; a missed write would leave a stale user in it.
const mayWrite = /\b(insert|update|delete|merge|truncate|alter|drop|copy)\b/i;
const namesUsers = /\busers\b/i;

export function mayWriteUsers(sql: string): boolean {
  return namesUsers.test(sql) && mayWrite.test(sql);
}
