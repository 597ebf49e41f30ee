import { mailedCode } from "./harness.ts";
import { call } from "./proof-helpers.ts";

// The API as a client calls it, for the data a browser test needs before its screens: JSON in
// and out, the ID token as a bearer. A refused call throws with its answer, so set-up fails loudly.

/** A person of a test, as they sign up. */
export interface Person {
  name: string;
  email: string;
  password: string;
}

/** One call (`body` undefined sends none); throws unless the answer is a 2xx. Returns its JSON. */
export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  const answer = await call(baseUrl, method, path, { body, token });
  if (answer.status < 200 || answer.status >= 300) {
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return (answer.body ?? {}) as Record<string, unknown>;
}

/** A POST to the server's API. */
export const post = (server: { url: string }, path: string, body: unknown, token?: string) =>
  callApi(server.url, "POST", path, body, token);

/**
 * Signs `who` up through the API and in; with `verified`, also verifies the address with the
 * mailed code. Returns the ID token.
 */
export async function signUpByApi(
  server: { url: string; outboxDir: string },
  who: Person,
  role: "student" | "teacher",
  { verified = false } = {},
): Promise<string> {
  await post(server, "/api/auth/register", { ...who, role });
  const { email, password } = who;
  const { token } = (await post(server, "/api/auth/login", { email, password })) as {
    token: string;
  };
  if (verified) await post(server, "/api/verify", { code: await mailedCode(server, email) }, token);
  return token;
}

/** A new class of the teacher whose token is given (mathematics, this school year). */
export async function createClassByApi(
  server: { url: string },
  teacherToken: string,
  name: string,
): Promise<{ id: string; joinCode: string }> {
  const created = (await post(
    server,
    "/api/classes",
    { name, subject: "mat", year: "2026/27" },
    teacherToken,
  )) as { class: { id: string; joinCode: string } };
  return created.class;
}
