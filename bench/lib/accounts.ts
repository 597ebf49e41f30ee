import { randomBytes } from "node:crypto";
import { post } from "../../e2e/api-calls.ts";
import { mulberry32 } from "../../packages/model/src/prng.ts";
import { randomInput } from "../../packages/model/src/testutil.ts";

// What the HTTP benches send as a signed-in user: a new account of their own, and the
// questionnaires a student posts.

/** The password of every account a bench makes. */
export const benchPassword = "bench-password-1234";

/** A new account, registered and signed in through the API; its ID token. */
export async function benchAccount(
  url: string,
  name: string,
  role: "student" | "teacher" = "student",
): Promise<string> {
  const email = `bench.${randomBytes(4).toString("hex")}@bench.test`;
  const password = benchPassword;
  await post({ url }, "/api/auth/register", { name, email, password, role });
  const { token } = (await post({ url }, "/api/auth/login", { email, password })) as {
    token: string;
  };
  return token;
}

/**
 * 256 different questionnaires as the form sends them (every value a string), the same in every
 * run: no cache keyed on a body could serve them.
 */
export function questionnaireBodies(): string[] {
  const rand = mulberry32(22);
  return Array.from({ length: 256 }, () =>
    JSON.stringify(
      Object.fromEntries(Object.entries(randomInput(rand)).map(([k, v]) => [k, String(v)])),
    ),
  );
}
