import type { FastifyRequest } from "fastify";
import type { Services } from "../services.ts";

// The refresh token and the device cookie live only in httpOnly, SameSite=Strict cookies.
// Served over HTTPS (PUBLIC_URL https:) they are Secure and named __Host-, which browsers accept
// only when Secure, without Domain and with Path=/: no subdomain or plain-HTTP page can set or
// shadow them. On plain HTTP (localhost) they keep their names and the /api/auth path.
export const refreshCookie = "gradecast_refresh";
export const deviceCookie = "gradecast_device";

function overHttps(services: Services): boolean {
  return services.config.publicUrl?.startsWith("https:") ?? false;
}

/** The name a cookie has on this server (__Host- over HTTPS). */
export function cookieName(services: Services, name: string): string {
  return overHttps(services) ? `__Host-${name}` : name;
}

export function cookieOptions(services: Services) {
  const secure = overHttps(services);
  return { httpOnly: true, sameSite: "strict" as const, secure, path: secure ? "/" : "/api/auth" };
}

export function refreshTokenOf(services: Services, request: FastifyRequest): string | undefined {
  const value = request.cookies[cookieName(services, refreshCookie)];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
