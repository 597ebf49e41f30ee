import { messages } from "@gradecast/contract/messages";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { localeOf } from "../http/locale.ts";
import { addressLimit, perAccount, routeLimit } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import { requireOwnOrigin } from "../http/same-origin.ts";
import { hour } from "../limits/guarded.ts";
import type { Services } from "../services.ts";
import {
  cookieName,
  cookieOptions,
  deviceCookie,
  refreshCookie,
  refreshTokenOf,
} from "./cookies.ts";
import { deviceCookieDays, signDeviceCookie } from "./device-cookie.ts";
import { createLoginGuard } from "./login-guard.ts";
import { reauthenticate } from "./reauth.ts";
import {
  type AuthContext,
  completeMfaLogin,
  forgotPassword,
  login,
  logout,
  refresh,
  refreshDays,
  register,
  resendCode,
  resetPassword,
  type SignedIn,
  verifyEmail,
} from "./service.ts";

// A session answers with the ID token in the JSON body and the refresh token in an HttpOnly
// cookie (cookies.ts), so page scripts never hold the long-lived secret.
function sendSession(services: Services, reply: FastifyReply, session: SignedIn) {
  reply
    .setCookie(cookieName(services, refreshCookie), session.refreshToken, {
      ...cookieOptions(services),
      maxAge: refreshDays * 86_400,
    })
    .header("cache-control", "no-store");
  return {
    token: session.token,
    expiresIn: session.expiresIn,
    user: session.user,
    ...(session.deletionCancelled ? { deletionCancelled: true as const } : {}),
  };
}

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | null | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
}

export async function authRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { services } = ctx;
  const origin = (request: FastifyRequest) => ({
    ip: request.ip ?? null,
    userAgent: request.headers["user-agent"] ?? null,
  });
  // This browser has signed in to this account: its later wrong tries are its own.
  const setDeviceCookie = async (reply: FastifyReply, email: string): Promise<void> => {
    const value = await signDeviceCookie(ctx.keys, email, services.now());
    reply.setCookie(cookieName(services, deviceCookie), value, {
      ...cookieOptions(services),
      maxAge: deviceCookieDays * 86_400,
    });
  };

  serve(
    app,
    routes.auth.register,
    {
      config: {
        ...routeLimit(services, "register", 20, hour, (r) => r.ip),
      },
    },
    async (request, reply) => {
      const user = await register(ctx, origin(request), request.body, localeOf(request));
      return reply.code(201).send({ user });
    },
  );

  // Failed sign-ins per account and per address (login-guard.ts), reset emails per address.
  const loginGuard = createLoginGuard(ctx);
  const resetsPerAddress = addressLimit(services, "forgot-address", 30, hour);

  serve(
    app,
    routes.auth.login,
    {
      config: {
        ...routeLimit(services, "login", 10, 60_000, (r) => `${r.ip}|${emailOf(r)}`),
      },
    },
    async (request, reply) => {
      const email = emailOf(request);
      const session = await loginGuard(request, email, () =>
        login(ctx, origin(request), request.body),
      );
      // MFA on: no token and no device cookie until the code is right (POST /api/auth/mfa).
      if ("mfaRequired" in session) {
        reply.header("cache-control", "no-store");
        return { mfaRequired: true as const, challenge: session.challenge };
      }
      await setDeviceCookie(reply, email);
      return sendSession(services, reply, session);
    },
  );

  // The second step: wrong codes are limited per account in mfa.ts, and per address here.
  const mfaTriesPerAddress = addressLimit(services, "mfa-address", 100, 15 * 60_000, (error) =>
    Boolean(error),
  );
  serve(app, routes.accountSecurity.mfaLogin, async (request, reply) => {
    const input = request.body;
    const session = await mfaTriesPerAddress(request, () =>
      completeMfaLogin(ctx, origin(request), input),
    );
    await setDeviceCookie(reply, session.email);
    return sendSession(services, reply, session);
  });

  // The session's own calls answer the app's pages only (http/same-origin.ts): checked before
  // anything else, so that a refusal neither ends the session nor clears its cookie.
  const ownOrigin = async (request: FastifyRequest) =>
    requireOwnOrigin(request, services.config.publicUrl);

  serve(
    app,
    routes.accountSecurity.reauth,
    { preValidation: ownOrigin },
    async (request, reply) => {
      await reauthenticate(ctx, actorOf(request).user, request.ip ?? null, request.body);
      return reply.code(204).send();
    },
  );

  serve(app, routes.auth.refresh, { preValidation: ownOrigin }, async (request, reply) => {
    try {
      const session = await refresh(ctx, origin(request), refreshTokenOf(services, request));
      return sendSession(services, reply, session);
    } catch (error) {
      reply.clearCookie(cookieName(services, refreshCookie), cookieOptions(services));
      throw error;
    }
  });

  serve(app, routes.auth.logout, { preValidation: ownOrigin }, async (request, reply) => {
    await logout(ctx, refreshTokenOf(services, request));
    return reply
      .clearCookie(cookieName(services, refreshCookie), cookieOptions(services))
      .code(204)
      .send();
  });

  const background = new Set<Promise<void>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled([...background]);
  });

  // 5 an hour per client address and email, not per email alone: a stranger's requests must not
  // keep the owner from getting a link (issue 26). What reaches one mailbox stays bounded by the
  // addresses sending (each also held to 30 reset emails an hour, whatever the accounts).
  serve(
    app,
    routes.auth.forgotPassword,
    {
      config: {
        ...routeLimit(services, "forgot", 5, hour, (r) => `${r.ip}|${emailOf(r)}`),
      },
    },
    async (request, reply) => {
      const work = await resetsPerAddress(request, () =>
        forgotPassword(ctx, request.body, localeOf(request)),
      );
      const job = work()
        .catch((error) => request.log.error({ err: error }, "password reset request failed"))
        .finally(() => background.delete(job));
      background.add(job);
      return reply.code(202).send({ message: messages.resetLinkSent });
    },
  );

  // Tokens are 256 bits and looked up before any hashing; the limit keeps a flood of made-up
  // ones from filling the log and the database's time.
  const resetTriesPerAddress = addressLimit(services, "reset-address", 60, hour);
  serve(app, routes.auth.resetPassword, async (request, reply) => {
    await resetTriesPerAddress(request, () => resetPassword(ctx, origin(request), request.body));
    return reply.code(200).send({ message: messages.passwordResetDone });
  });

  serve(app, routes.auth.verify, async (request, reply) => {
    await verifyEmail(ctx, actorOf(request).user.id, request.body);
    return reply.code(200).send({ message: messages.verifySuccess });
  });

  serve(
    app,
    routes.auth.resendVerification,
    { config: { ...perAccount(services, "resend", 5, hour) } },
    async (request, reply) => {
      await resendCode(ctx, actorOf(request).user.id);
      return reply.code(202).send({ message: messages.codeResent });
    },
  );
}
