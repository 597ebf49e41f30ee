// The one way the web app talks to the server: JSON over fetch, the ID token from localStorage
// `token` as a bearer token, one silent refresh through the httpOnly cookie when the token has
// expired, and every failure turned into an `ApiError` built from the uniform error body
// `{"error":{"code","message","fields"}}`.

import type { ApiRoute, RouteOf } from "@gradecast/contract/routes/index";
import type { z } from "zod";

export const tokenKey = "token";

/** Fired on window when the session ends without the user asking (refresh refused). */
export const sessionEndedEvent = "gradecast:session-ended";

export const networkErrorMessage = "Cannot reach the server. Check your connection and try again.";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  readonly requestId: string | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    requestId?: string,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.requestId = requestId;
  }
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(tokenKey);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  try {
    if (token === null) localStorage.removeItem(tokenKey);
    else localStorage.setItem(tokenKey, token);
  } catch {
    // Storage refused (private mode): the session lasts as long as the page.
  }
}

// The language the page speaks (i18n/locale.tsx), sent as Accept-Language so that the server's
// messages (errors, field messages) come back in it.
let requestLanguage: string | null = null;

export function setRequestLanguage(locale: string | null): void {
  requestLanguage = locale;
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ApiOptions {
  signal?: AbortSignal;
  /** Send the bearer token and refresh it on 401 (default true). */
  auth?: boolean;
  headers?: Record<string, string>;
}

/** `/me` and `/api/me` both mean the API route `/api/me`. */
export function apiUrl(path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  const p = path.startsWith("/") ? path : `/${path}`;
  return p === "/api" || p.startsWith("/api/") ? p : `/api${p}`;
}

/** Builds an ApiError from any answer that is not a success. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (error && typeof error.message === "string") {
    const fields =
      error.fields && typeof error.fields === "object"
        ? (error.fields as Record<string, string>)
        : {};
    return new ApiError(
      res.status,
      typeof error.code === "string" ? error.code : "error",
      error.message,
      fields,
      typeof error.requestId === "string" ? error.requestId : undefined,
    );
  }
  return new ApiError(res.status, statusCode(res.status), statusMessage(res.status));
}

function statusCode(status: number): string {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 413) return "payload_too_large";
  if (status === 429) return "rate_limited";
  return status >= 500 ? "internal_error" : "error";
}

function statusMessage(status: number): string {
  if (status === 401) return "Please log in to continue.";
  if (status === 403) return "You are not allowed to do this.";
  if (status === 404) return "Not found.";
  if (status === 429) return "Too many attempts. Please wait and try again.";
  return "Something went wrong on our side. Please try again.";
}

/** Whether a 401 means "the ID token is missing, expired or bad" (worth one refresh). */
export function isTokenProblem(error: ApiError): boolean {
  return error.status === 401 && error.code !== "invalid_credentials";
}

let refreshing: Promise<string | null> | null = null;

/**
 * Trades the httpOnly refresh cookie for a new ID token. Concurrent callers share one request,
 * and tabs take turns through a Web Lock: the refresh token rotates on each use and a rotated
 * one used again revokes the session, so a tab that finds a token newer than the one that
 * failed uses it instead of refreshing again.
 */
export function refreshToken(failedToken: string | null): Promise<string | null> {
  if (!refreshing) {
    const run = async () => {
      const current = getToken();
      if (current && current !== failedToken) return current;
      let res: Response;
      try {
        res = await fetch("/api/auth/refresh", {
          method: "POST",
          credentials: "same-origin",
          headers: { accept: "application/json" },
        });
      } catch {
        return null;
      }
      if (!res.ok) return null;
      const body = (await res.json()) as { token?: string };
      if (!body.token) return null;
      setToken(body.token);
      return body.token;
    };
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    const task: Promise<string | null> = locks
      ? (locks.request("gradecast-refresh", run) as unknown as Promise<string | null>)
      : run();
    const shared = task.finally(() => {
      refreshing = null;
    });
    refreshing = shared;
    return shared;
  }
  return refreshing;
}

async function send(
  method: string,
  path: string,
  body: unknown,
  opts: ApiOptions,
  token: string | null,
): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  if (requestLanguage && !headers["accept-language"]) headers["accept-language"] = requestLanguage;
  // A Blob (an uploaded file) goes as its own bytes and type; anything else as JSON.
  const file = body instanceof Blob ? body : undefined;
  if (body !== undefined) headers["content-type"] = file ? file.type : "application/json";
  if (token && opts.auth !== false) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(apiUrl(path), {
      method,
      headers,
      body: file ?? (body === undefined ? undefined : JSON.stringify(body)),
      credentials: "same-origin",
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "network_error", networkErrorMessage);
  }
}

/** An admin without two-step login can only enrol: every other call sends them to Settings. */
async function leadToMfaEnrolment(res: Response): Promise<void> {
  const error = await errorFromResponse(res.clone());
  if (error.code !== "mfa_enrolment_required") return;
  if (typeof window !== "undefined" && window.location.pathname !== "/settings") {
    window.location.assign("/settings#mfa");
  }
}

/** Sends a request, refreshing the ID token once on a 401 caused by the token. */
export async function request(
  method: Method,
  path: string,
  body?: unknown,
  opts: ApiOptions = {},
): Promise<Response> {
  const token = opts.auth === false ? null : getToken();
  let res = await send(method, path, body, opts, token);
  if (res.status === 403) await leadToMfaEnrolment(res);
  if (res.ok || res.status !== 401 || opts.auth === false) return res;
  const error = await errorFromResponse(res.clone());
  if (!isTokenProblem(error)) return res;
  const fresh = await refreshToken(token);
  if (!fresh) {
    if (token) {
      setToken(null);
      window.dispatchEvent(new Event(sessionEndedEvent));
    }
    return res;
  }
  res = await send(method, path, body, opts, fresh);
  return res;
}

/**
 * `api<T>(method, path, body?, opts?)`: the parsed JSON answer (undefined for 204), or an
 * `ApiError` thrown with the server's status, code, message and field messages.
 */
export async function api<T>(
  method: Method,
  path: string,
  body?: unknown,
  opts: ApiOptions = {},
): Promise<T> {
  const res = await request(method, path, body, opts);
  if (!res.ok) throw await errorFromResponse(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("json")) return (await res.text()) as T;
  return (await res.json()) as T;
}

/** The file name of a Content-Disposition header, if any. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = disposition.match(/filename\*=UTF-8''([^;]+)/i);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = disposition.match(/filename="?([^";]+)"?/i);
  return plain?.[1]?.trim() || fallback;
}

/**
 * Downloads a file the API serves (e.g. `/api/reports/export.csv?search=…`) with the bearer
 * token, and hands it to the browser as a download named by the server.
 */
export async function downloadFile(path: string, fallbackName = "download"): Promise<void> {
  const res = await request("GET", path, undefined, { headers: { accept: "*/*" } });
  if (!res.ok) throw await errorFromResponse(res);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileNameOf(res.headers.get("content-disposition"), fallbackName);
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Calls by route (docs/decisions/0015): `call("PATCH /api/classes/:id", { params: { id }, body })`.
// The route's entry in the contract types the path parameters, query, body and answer; only
// types are imported, so no schema reaches the bundle.
type Schema<E, K extends string> = E extends { [P in K]: infer S extends z.ZodType } ? S : never;
type SuccessStatus = 200 | 201 | 202 | 204;
type Answers<E> = E extends { response: infer R } ? R : never;

/** What a route answers on success (undefined for 204, the text of a CSV or HTML body). */
export type AnswerOf<K extends ApiRoute> = {
  [S in keyof Answers<RouteOf<K>> & SuccessStatus]: Answers<RouteOf<K>>[S] extends z.ZodType
    ? z.output<Answers<RouteOf<K>>[S]>
    : never;
}[keyof Answers<RouteOf<K>> & SuccessStatus];

/** What a call to a route sends: path parameters, query and body, as its entry declares them. */
export type InputOf<K extends ApiRoute> = ([Schema<RouteOf<K>, "params">] extends [never]
  ? { params?: undefined }
  : { params: z.input<Schema<RouteOf<K>, "params">> }) &
  ([Schema<RouteOf<K>, "querystring">] extends [never]
    ? { query?: undefined }
    : { query?: z.input<Schema<RouteOf<K>, "querystring">> }) &
  ([Schema<RouteOf<K>, "body">] extends [never]
    ? // A route without a JSON body may take a file (the roster upload).
      { body?: Blob }
    : { body: z.input<Schema<RouteOf<K>, "body">> });

type Needed<K extends ApiRoute> = [
  Schema<RouteOf<K>, "params"> | Schema<RouteOf<K>, "body">,
] extends [never]
  ? [input?: InputOf<K>, opts?: ApiOptions]
  : [input: InputOf<K>, opts?: ApiOptions];

/** The address of a call: path parameters filled in (encoded), the query appended. */
export function routeUrl(route: ApiRoute, input: { params?: object; query?: object } = {}): string {
  const path = (route.split(" ")[1] ?? "").replace(/:(\w+)/g, (_, name: string) => {
    const value = (input.params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null) throw new Error(`${route}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** Calls one route: the parsed answer, typed by its entry, or an `ApiError`. */
export function call<K extends ApiRoute>(
  route: K,
  ...[input, opts]: Needed<K>
): Promise<AnswerOf<K>> {
  const method = route.split(" ")[0] as Method;
  const { body } = (input ?? {}) as { body?: unknown };
  return api<AnswerOf<K>>(method, routeUrl(route, input as { params?: object }), body, opts);
}
