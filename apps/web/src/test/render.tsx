import type { User } from "@gradecast/contract/auth";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { afterEach, vi } from "vitest";
import { SessionProvider, useSession } from "../auth/session.tsx";
import en from "../i18n/catalogue-en.ts";
import enApp from "../i18n/catalogue-en-app.ts";
import ptPT from "../i18n/catalogue-pt-PT.ts";
import ptPTApp from "../i18n/catalogue-pt-PT-app.ts";
import { LocaleProvider } from "../i18n/locale.tsx";
import type { Messages } from "../i18n/types.ts";

// Component tests render a page as the app does (router, session, query cache) against a fake
// server: a table of "METHOD /path" answers standing in for fetch. What a test asserts is what
// the person sees; what the fake server received is there to check what was sent.
// Both catalogues are at hand at once (no fetch): a page speaks English, as the test browser's
// language is; `localStorage.setItem("gradecast:locale", "pt-PT")` before rendering, or a user
// whose `locale` is "pt-PT", makes it speak European Portuguese.
// Each language's two parts (public and app) merged: the whole catalogue.
export const testCatalogues = {
  en: { ...en, ...enApp } as Messages,
  "pt-PT": { ...ptPT, ...ptPTApp } as Messages,
};

export interface FakeAnswer {
  status?: number;
  body?: unknown;
}
/** `body` is the parsed JSON, or the text of a file sent (a CSV upload); `url` has the query. */
export type FakeRoute = (request: { body: unknown; url: URL }) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeServer {
  /** Requests received, in order: "METHOD /path", the parsed JSON body and the headers. */
  calls: { route: string; body: unknown; headers: Headers }[];
}

export function fakeServer(routes: Record<string, FakeRoute>): FakeServer {
  const server: FakeServer = { calls: [] };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
    const route = `${init.method ?? "GET"} ${url.pathname}`;
    const body =
      typeof init.body === "string"
        ? JSON.parse(init.body)
        : init.body instanceof Blob
          ? await init.body.text()
          : undefined;
    // The headers are there to read, not compared: existing assertions match { route, body }.
    const call = { route, body } as FakeServer["calls"][number];
    Object.defineProperty(call, "headers", { value: new Headers(init.headers), enumerable: false });
    server.calls.push(call);
    const handler = routes[route];
    const answer = handler
      ? await handler({ body, url })
      : { status: 404, body: { error: { code: "not_found", message: `No fake for ${route}` } } };
    const status = answer.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), {
      status,
      headers: { "content-type": "application/json" },
    });
  });
  return server;
}

/** The server's refusal: 400 with its error (code, message and, for a form, each field's). */
export function refused(error: {
  code: string;
  message: string;
  fields?: Record<string, string>;
}): FakeRoute {
  return () => ({ status: 400, body: { error } });
}

/** The server's refusal of a form: "validation_failed" with a message for each field. */
export function fieldsRefused(fields: Record<string, string>): FakeRoute {
  return refused({ code: "validation_failed", message: "Check the highlighted fields.", fields });
}

export function testUser(role: User["role"], overrides: Partial<User> = {}): User {
  return {
    uid: `uid-${role}`,
    name: `Test ${role}`,
    email: `${role}@example.org`,
    role,
    pendingRole: null,
    emailVerified: true,
    createdAt: "2026-01-05T08:00:00.000Z",
    locale: null,
    ...overrides,
  };
}

/** Signs the page's session in as `user`: a stored token and GET /api/me answering with it. */
export function signedInAs(user: User): Record<string, FakeRoute> {
  localStorage.setItem("token", "test-token");
  return { "GET /api/me": () => ({ body: user }) };
}

/**
 * `page` at `path` as `user` sees it: the fake server signs the user in and answers each GET
 * of `answers` (address → body) with its body.
 */
export function renderAs(
  user: User,
  page: ReactNode,
  path: string,
  answers: Record<string, unknown>,
) {
  const gets = Object.entries(answers).map(([url, body]): [string, FakeRoute] => [
    `GET ${url}`,
    () => ({ body }),
  ]);
  fakeServer({ ...signedInAs(user), ...Object.fromEntries(gets) });
  return renderPage(page, path);
}

/** The messages of window.alert from now on (the dialog itself is not shown). */
export function watchAlerts(): string[] {
  const seen: string[] = [];
  vi.stubGlobal("alert", (message: unknown) => seen.push(String(message)));
  window.alert = globalThis.alert;
  return seen;
}

/**
 * The page once the session is settled, as the app's guards show it: a page that keys its state
 * by the user (the report form's draft) would otherwise start over when the user arrives, and
 * lose what a test had typed meanwhile.
 */
function Settled({ children }: { children: ReactNode }) {
  const { status } = useSession();
  return status === "loading" ? null : children;
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** A table's column headings, as read. */
export function columnHeaders(table: HTMLElement) {
  return within(table)
    .getAllByRole("columnheader")
    .map((h) => h.textContent);
}

/** Renders `page` at `path` inside the app's providers; other addresses render their path. */
export function renderPage(page: ReactNode, path = "/") {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider>
          <LocaleProvider catalogues={testCatalogues}>
            <Routes>
              <Route path={path.split("?")[0]} element={<Settled>{page}</Settled>} />
              <Route path="*" element={<Where />} />
            </Routes>
          </LocaleProvider>
        </SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user, ...view };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});
