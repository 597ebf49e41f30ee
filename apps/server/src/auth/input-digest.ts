import { signingKeyDigest } from "./signing-key-digest.ts";

// What a failed sign-in typed into the email field, when it names no account, is kept in the
// audit log only as this digest (issue 26): people type passwords there, and admins read the log.
// The same input gives the same digest, so repeated tries at one input can be told apart.
export const inputDigest = signingKeyDigest("audit input digest v1");
