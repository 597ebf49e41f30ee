import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  ApiError,
  api,
  apiUrl,
  call,
  errorFromResponse,
  fileNameOf,
  networkErrorMessage,
  sessionEndedEvent,
} from "./client.ts";

// The client in node: fetch is replaced by a fake server, localStorage by a Map.
type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

let store: Map<string, string>;
let calls: { url: string; init: RequestInit }[];
let ended: number;

function serve(handler: Handler) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return handler(url, init);
    }),
  );
}

const bearer = (init: RequestInit) =>
  (init.headers as Record<string, string> | undefined)?.authorization;

beforeEach(() => {
  store = new Map();
  calls = [];
  ended = 0;
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
  const target = new EventTarget();
  target.addEventListener(sessionEndedEvent, () => {
    ended += 1;
  });
  vi.stubGlobal("window", target);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("api()", () => {
  it("sends JSON with the bearer token from localStorage and returns the parsed answer", async () => {
    store.set("token", "t1");
    serve(() => json(200, { uid: "u1" }));
    const me = await api<{ uid: string }>("PATCH", "/me", { name: "Ada" });
    expect(me).toEqual({ uid: "u1" });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/me");
    expect(calls[0]?.init.method).toBe("PATCH");
    expect(calls[0]?.init.body).toBe('{"name":"Ada"}');
    expect(bearer(calls[0]!.init)).toBe("Bearer t1");
  });

  it("throws an ApiError with the server's status, code, message and fields", async () => {
    serve(() =>
      json(400, {
        error: {
          code: "validation_failed",
          message: "Check the highlighted fields.",
          fields: { email: "Enter a valid email address." },
        },
      }),
    );
    const err = await api("POST", "/api/auth/register", {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Check the highlighted fields.",
      fields: { email: "Enter a valid email address." },
    });
  });

  it("answers undefined for 204", async () => {
    serve(() => new Response(null, { status: 204 }));
    await expect(api("POST", "/api/me/password", {})).resolves.toBeUndefined();
  });

  it("turns a network failure into a clear message", async () => {
    serve(() => {
      throw new TypeError("Failed to fetch");
    });
    const err = await api("GET", "/api/me").catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, code: "network_error", message: networkErrorMessage });
  });

  it("on a 401 refreshes the token once through the cookie, stores it, and retries", async () => {
    store.set("token", "old");
    serve((url, init) => {
      if (url === "/api/auth/refresh") return json(200, { token: "new", expiresIn: 900 });
      return bearer(init) === "Bearer new"
        ? json(200, { ok: true })
        : json(401, { error: { code: "unauthorized", message: "Please sign in to continue." } });
    });
    await expect(api("GET", "/api/me")).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.url)).toEqual(["/api/me", "/api/auth/refresh", "/api/me"]);
    expect(calls[1]?.init.credentials).toBe("same-origin");
    expect(store.get("token")).toBe("new");
  });

  it("shares one refresh between requests that fail together", async () => {
    store.set("token", "old");
    serve(async (url, init) => {
      if (url === "/api/auth/refresh") {
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { token: "new" });
      }
      return bearer(init) === "Bearer new"
        ? json(200, { url })
        : json(401, { error: { code: "unauthorized", message: "Sign in." } });
    });
    const answers = await Promise.all([api("GET", "/api/a"), api("GET", "/api/b")]);
    expect(answers).toEqual([{ url: "/api/a" }, { url: "/api/b" }]);
    expect(calls.filter((c) => c.url === "/api/auth/refresh")).toHaveLength(1);
  });

  it("signs out when the refresh is refused, and does not loop", async () => {
    store.set("token", "old");
    serve((url) =>
      url === "/api/auth/refresh"
        ? json(401, { error: { code: "unauthorized", message: "Please sign in to continue." } })
        : json(401, { error: { code: "unauthorized", message: "Please sign in to continue." } }),
    );
    const err = await api("GET", "/api/me").catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, code: "unauthorized" });
    expect(calls).toHaveLength(2);
    expect(store.has("token")).toBe(false);
    expect(ended).toBe(1);
  });

  it("does not refresh on a wrong password (invalid_credentials) nor on auth: false calls", async () => {
    store.set("token", "t1");
    serve(() =>
      json(401, {
        error: { code: "invalid_credentials", message: "Your current password is incorrect." },
      }),
    );
    const err = await api("POST", "/api/me/password", {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: "Your current password is incorrect." });
    expect(calls).toHaveLength(1);
    expect(store.get("token")).toBe("t1");

    calls = [];
    serve(() => json(401, { error: { code: "unauthorized", message: "x" } }));
    await api("POST", "/api/auth/login", {}, { auth: false }).catch(() => undefined);
    expect(calls).toHaveLength(1);
    expect(bearer(calls[0]!.init)).toBeUndefined();
  });
});

describe("helpers", () => {
  it("apiUrl prefixes /api once", () => {
    expect(apiUrl("/me")).toBe("/api/me");
    expect(apiUrl("me")).toBe("/api/me");
    expect(apiUrl("/api/me")).toBe("/api/me");
    expect(apiUrl("/api/reports?search=a")).toBe("/api/reports?search=a");
  });

  it("errorFromResponse copes with an answer that is not the error shape", async () => {
    const err = await errorFromResponse(new Response("<html>bad gateway</html>", { status: 502 }));
    expect(err).toMatchObject({ status: 502, code: "internal_error" });
    expect(err.message).toBe("Something went wrong on our side. Please try again.");
    const limited = await errorFromResponse(new Response("", { status: 429 }));
    expect(limited.message).toBe("Too many attempts. Please wait and try again.");
  });

  it("fileNameOf reads Content-Disposition", () => {
    expect(fileNameOf('attachment; filename="reports.csv"', "x")).toBe("reports.csv");
    expect(fileNameOf("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.csv", "x")).toBe("résumé.csv");
    expect(fileNameOf(null, "fallback.csv")).toBe("fallback.csv");
  });
});

describe("call: by route, typed by its contract entry", () => {
  it("fills the path parameters (encoded), appends the query and sends the body as JSON", async () => {
    serve(() => json(200, { class: { id: "c/1" } }));
    await call("PATCH /api/classes/:id", { params: { id: "c/1" }, body: { name: "Maths" } });
    expect(calls[0]?.url).toBe("/api/classes/c%2F1");
    expect(calls[0]?.init.method).toBe("PATCH");
    expect(calls[0]?.init.body).toBe(JSON.stringify({ name: "Maths" }));

    serve(() => json(200, { items: [], nextCursor: null }));
    await call("GET /api/reports", { query: { search: "a b", cursor: undefined } });
    expect(calls[1]?.url).toBe("/api/reports?search=a+b");

    serve(() => new Response(null, { status: 204 }));
    const answer = await call("DELETE /api/classes/:id/invitations/:email", {
      params: { id: "c1", email: "a+b@x.org" },
    });
    expect(calls[2]?.url).toBe("/api/classes/c1/invitations/a%2Bb%40x.org");
    expect(answer).toBeUndefined();
  });

  it("types the answer, the body and the parameters from the entry", () => {
    expectTypeOf<Awaited<ReturnType<typeof call<"GET /api/me">>>>().toHaveProperty("email");
    expectTypeOf<
      Awaited<ReturnType<typeof call<"DELETE /api/me/sessions/:id">>>
    >().toEqualTypeOf<undefined>();
    // @ts-expect-error: the class's id is required
    void (() => call("GET /api/classes/:id", {}));
    // @ts-expect-error: a report's body is required
    void (() => call("POST /api/reports"));
    // @ts-expect-error: not a route
    void (() => call("GET /api/nowhere"));
  });
});
