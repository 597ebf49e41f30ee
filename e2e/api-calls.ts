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

/**
 * A class of `name` (as createClassByApi makes it) of a teacher signed up through the API, with
 * its students: each signed up (both verified), joined with the class's code, then predicted with
 * their answers when any are given. The class, and the students' tokens in their order.
 */
export async function classWithStudents(
  server: { url: string; outboxDir: string },
  teacher: Person,
  name: string,
  students: readonly (readonly [Person, Record<string, unknown> | null])[],
): Promise<{ created: { id: string; joinCode: string }; tokens: string[] }> {
  const teacherToken = await signUpByApi(server, teacher, "teacher", { verified: true });
  const created = await createClassByApi(server, teacherToken, name);
  const tokens: string[] = [];
  for (const [who, answers] of students) {
    const token = await signUpByApi(server, who, "student", { verified: true });
    await post(server, "/api/classes/join", { code: created.joinCode }, token);
    if (answers) await post(server, "/api/predict", answers, token);
    tokens.push(token);
  }
  return { created, tokens };
}
