import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { apiTest } from "../support/fixtures.ts";
import { errorOf } from "../support/helpers.ts";

// TRUST_PROXY: the client is the right-most X-Forwarded-For address that is not a trusted proxy,
// so what a client writes at the left of the header is never believed. `true`, which took the
// left-most entry, is refused at start.
const proxySettings = ["1", "127.0.0.1"];
/** An app per setting, each with its own rate-limit counters. */
const behindProxy = Object.fromEntries(
  proxySettings.map((setting) => [setting, apiTest("pglite", { env: { TRUST_PROXY: setting } })]),
);

describe("TRUST_PROXY", () => {
  it("refuses true with what to set instead, and reads a hop count or proxy addresses", () => {
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(ConfigError);
    try {
      loadConfig({ TRUST_PROXY: "true" });
    } catch (error) {
      expect((error as ConfigError).problems.join("\n")).toMatch(
        /^TRUST_PROXY="true": .*number of proxies.*their addresses/,
      );
    }
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.2, 10.0.1.0/24,::1" }).trustProxy).toEqual([
      "10.0.0.2",
      "10.0.1.0/24",
      "::1",
    ]);
    for (const bad of ["0", "yes", "10.0.0.0/33", "10.0.0.300", "proxy.example"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  for (const setting of proxySettings) {
    describe(`behind one trusted proxy (TRUST_PROXY=${setting})`, () => {
      const test = behindProxy[setting]!;
      test("a client that rotates the left of X-Forwarded-For does not escape a per-address limit", async ({
        t,
      }) => {
        // Reset emails: 30 an hour per client address. The proxy appends the address it saw.
        const statuses: number[] = [];
        for (let i = 0; i < 32; i++) {
          const res = await t.app.inject({
            method: "POST",
            url: "/api/auth/forgot-password",
            remoteAddress: "127.0.0.1",
            headers: { "x-forwarded-for": `198.51.100.${i}, 203.0.113.7` },
            payload: { email: `nobody${i}@example.com` },
          });
          statuses.push(res.statusCode);
          if (res.statusCode === 429) expect(errorOf(res.body).code).toBe("rate_limited");
        }
        expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
        expect(statuses.slice(30)).toEqual([429, 429]);
        // Another client behind the same proxy is not held back by it.
        const other = await t.app.inject({
          method: "POST",
          url: "/api/auth/forgot-password",
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": "203.0.113.8" },
          payload: { email: "someone@example.com" },
        });
        expect(other.statusCode).toBe(202);
      });
    });
  }
});
