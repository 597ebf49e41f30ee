import { messages } from "@gradecast/contract/messages";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../http/errors.ts";
import { addressLimit, hour, perAccount, routeLimit } from "../http/rate-limits.ts";
import type { Services } from "../services.ts";
import {
  type AuthContext,
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

// The auth API of DESIGN.md section 4. The refresh token lives only in an httpOnly,
// SameSite=Strict cookie scoped to /api/auth; the ID token travels in the JSON answer.
export const refreshCookie = "gradecast_refresh";
const cookiePath = "/api/auth";

function cookieOptions(services: Services) {
  return {
    httpOnly: true,
    sameSite: "strict" as const,
    secure: services.config.publicUrl?.startsWith("https:") ?? false,
    path: cookiePath,
  };
}

export function refreshTokenOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[refreshCookie];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function sendSession(services: Services, reply: FastifyReply, session: SignedIn) {
  reply
    .setCookie(refreshCookie, session.refreshToken, {
      ...cookieOptions(services),
      maxAge: refreshDays * 86_400,
    })
    .header("cache-control", "no-store");
  return { token: session.token, expiresIn: session.expiresIn, user: session.user };
}

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | null | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
}

export async function authRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { services } = ctx;
  const origin = (request: FastifyRequest) => ({ ip: request.ip ?? null });

  app.post(
    "/api/auth/register",
    {
      config: {
        access: "POST /api/auth/register",
        ...routeLimit(services, "register", 20, hour, (r) => r.ip),
      },
    },
    async (request, reply) => {
      const user = await register(ctx, origin(request), request.body);
      return reply.code(201).send({ user });
    },
  );

  // Wider limits per client address (see addressLimit): failed sign-ins, and reset emails.
  const failedLoginsPerAddress = addressLimit(
    app,
    services,
    "login-failed",
    100,
    15 * 60_000,
    (error) => error instanceof AppError && error.code === "invalid_credentials",
  );
  const resetsPerAddress = addressLimit(app, services, "forgot-address", 30, hour);

  app.post(
    "/api/auth/login",
    {
      config: {
        access: "POST /api/auth/login",
        ...routeLimit(services, "login", 10, 60_000, (r) => `${r.ip}|${emailOf(r)}`),
      },
    },
    async (request, reply) => {
      const session = await failedLoginsPerAddress(request, reply, () =>
        login(ctx, origin(request), request.body),
      );
      return sendSession(services, reply, session);
    },
  );

  app.post(
    "/api/auth/refresh",
    { config: { access: "POST /api/auth/refresh" } },
    async (request, reply) => {
      try {
        const session = await refresh(ctx, { ip: request.ip ?? null }, refreshTokenOf(request));
        return sendSession(services, reply, session);
      } catch (error) {
        reply.clearCookie(refreshCookie, cookieOptions(services));
        throw error;
      }
    },
  );

  app.post(
    "/api/auth/logout",
    { config: { access: "POST /api/auth/logout" } },
    async (request, reply) => {
      await logout(ctx, refreshTokenOf(request));
      return reply.clearCookie(refreshCookie, cookieOptions(services)).code(204).send();
    },
  );

  const background = new Set<Promise<void>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled([...background]);
  });

  app.post(
    "/api/auth/forgot-password",
    {
      config: {
        access: "POST /api/auth/forgot-password",
        ...routeLimit(services, "forgot", 5, hour, emailOf),
      },
    },
    async (request, reply) => {
      const work = await resetsPerAddress(request, reply, () => forgotPassword(ctx, request.body));
      const job = work()
        .catch((error) => request.log.error({ err: error }, "password reset request failed"))
        .finally(() => background.delete(job));
      background.add(job);
      return reply.code(202).send({ message: messages.resetLinkSent });
    },
  );

  app.post(
    "/api/auth/reset-password",
    { config: { access: "POST /api/auth/reset-password" } },
    async (request, reply) => {
      await resetPassword(ctx, origin(request), request.body);
      return reply.code(200).send({ message: "Your password has been reset. You can now log in." });
    },
  );

  app.post("/api/verify", { config: { access: "POST /api/verify" } }, async (request, reply) => {
    await verifyEmail(ctx, request.user!.id, request.body);
    return reply.code(200).send({ message: messages.verifySuccess });
  });

  app.post(
    "/api/verify/resend",
    {
      config: {
        access: "POST /api/verify/resend",
        ...perAccount(services, "resend", 5, hour),
      },
    },
    async (request, reply) => {
      await resendCode(ctx, request.user!.id);
      return reply.code(202).send({ message: "A new code has been sent to your email." });
    },
  );
}
