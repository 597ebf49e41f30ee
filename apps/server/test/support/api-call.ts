import { randomIp } from "./accounts.ts";
import type { TestApp } from "./helpers.ts";

/**
 * One API call from an address of its own (the per-IP rate limits never get in the way), with
 * these headers (a bearer header, a language…) and JSON body.
 */
export function callApi(
  t: TestApp,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  headers: object = {},
  payload?: object,
) {
  return t.app.inject({
    method,
    url,
    headers: { ...headers },
    remoteAddress: randomIp(),
    ...(payload === undefined ? {} : { payload }),
  });
}
