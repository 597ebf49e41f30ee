import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import * as client from "openid-client";
import { notFound } from "../domain-errors.ts";
import { routeLimit } from "../http/rate-limits.ts";
import { serve } from "../http/route-schemas.ts";
import { cookieName, cookieOptions, refreshCookie } from "./cookies.ts";
import { createOidcClient, finishOidc, loginMinutes, OidcRefused, startOidc } from "./oidc.ts";
import { type AuthContext, refreshDays } from "./service.ts";

// GET /api/auth/oidc/start and /callback are page navigations: each answers with a redirect.
// The browser that started a sign-in holds a random value in an HttpOnly cookie (SameSite=Lax,
// so that it comes back with the provider's top-level redirect; scoped to these routes); the
// server keeps its SHA-256 beside the state, nonce and PKCE verifier (oidc_logins).
const bindingCookie = "gradecast_oidc";

export async function oidcRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { services } = ctx;
  const { config } = services;
  const oidc =
    config.oidc && config.publicUrl ? createOidcClient(config.oidc, config.publicUrl) : undefined;
  const overHttps = config.publicUrl?.startsWith("https:") ?? false;
  const binding = cookieName(services, bindingCookie);
  const bindingOptions = {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: overHttps,
    path: overHttps ? "/" : "/api/auth/oidc",
  };
  const origin = (request: FastifyRequest) => ({
    ip: request.ip ?? null,
    userAgent: request.headers["user-agent"] ?? null,
  });
  const toLogin = (reply: FastifyReply, query: string) =>
    reply
      .header("cache-control", "no-store")
      .header("referrer-policy", "no-referrer")
      .redirect(`${config.publicUrl ?? ""}/login${query}`, 302);

  serve(
    app,
    routes.auth.oidcStart,
    { config: { ...routeLimit(services, "oidc-start", 60, 60_000, (r) => r.ip) } },
    async (_request, reply) => {
      if (!oidc) throw notFound();
      try {
        const { url, browser } = await startOidc(ctx, oidc);
        reply.setCookie(binding, browser, { ...bindingOptions, maxAge: loginMinutes * 60 });
        return reply.header("cache-control", "no-store").redirect(url, 302);
      } catch (error) {
        if (error instanceof OidcRefused) return toLogin(reply, `?oidc_error=${error.code}`);
        throw error;
      }
    },
  );

  serve(
    app,
    routes.auth.oidcCallback,
    { config: { ...routeLimit(services, "oidc-callback", 60, 60_000, (r) => r.ip) } },
    async (request, reply) => {
      if (!oidc || !config.publicUrl) throw notFound();
      const browser = request.cookies[binding];
      reply.clearCookie(binding, bindingOptions);
      try {
        const outcome = await finishOidc(ctx, oidc, origin(request), {
          currentUrl: new URL(request.url, config.publicUrl),
          state: request.query.state,
          browser: typeof browser === "string" ? browser : undefined,
        });
        if (outcome.kind === "mfa") {
          // The code comes next, on the login page; the challenge stays out of logs and Referer
          // in the fragment.
          return toLogin(reply, `?oidc=mfa#challenge=${encodeURIComponent(outcome.challenge)}`);
        }
        reply.setCookie(cookieName(services, refreshCookie), outcome.session.refreshToken, {
          ...cookieOptions(services),
          maxAge: refreshDays * 86_400,
        });
        // The page trades the refresh cookie for its ID token (POST /api/auth/refresh).
        return toLogin(reply, "?oidc=signed_in");
      } catch (error) {
        if (error instanceof OidcRefused) return toLogin(reply, `?oidc_error=${error.code}`);
        throw error;
      }
    },
  );

  // After signing out here: the provider's own sign-out page, when it has one.
  serve(app, routes.auth.oidcLogout, async (_request, reply) => {
    if (!oidc || !config.publicUrl) throw notFound();
    reply.header("cache-control", "no-store");
    try {
      const configuration = await oidc.configuration();
      if (!configuration.serverMetadata().end_session_endpoint) return { url: null };
      const url = client.buildEndSessionUrl(configuration, {
        client_id: oidc.settings.clientId,
        post_logout_redirect_uri: `${config.publicUrl}/login`,
      });
      return { url: url.href };
    } catch {
      return { url: null };
    }
  });
}
