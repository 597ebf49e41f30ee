// Whether a statement may write to what the access check remembers of a user: the users table,
// or sessions (it also remembers whether the ID token's session is still live). It names one of
// them and a writing verb. Cautious on purpose (a read that names a column "users" counts too):
// a false alarm only empties the cache of users; a missed write would leave a stale user in it.
const mayWrite = /\b(insert|update|delete|merge|truncate|alter|drop|copy)\b/i;
const namesUsers = /\b(users|sessions)\b/i;

export function mayWriteUsers(sql: string): boolean {
  return namesUsers.test(sql) && mayWrite.test(sql);
}
