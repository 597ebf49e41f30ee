import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

// A small OpenID issuer for the refusals a well-behaved provider never produces: real HTTP
// (discovery, JWKS, authorization and token endpoints), its ID tokens built with jose and
// spoiled as the test asks: signed by a key the JWKS does not hold, expired, for another
// audience, with another nonce or none. Everything else is right, so that each test shows the
// app refusing that one fault.

export type Fault =
  | "none"
  | "other-key"
  | "expired"
  | "wrong-audience"
  | "wrong-nonce"
  | "no-nonce";

export interface BadIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The fault of the next ID token, and the claims it carries. */
  next(fault: Fault, claims: Record<string, unknown>): void;
  /** Follows the authorization URL to the app's callback URL (this issuer signs in at once). */
  authorize(url: string): Promise<string>;
  close(): Promise<void>;
}

export async function startBadIssuer(): Promise<BadIssuer> {
  const good = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const kid = "test-key";
  const jwk = { ...(await exportJWK(good.publicKey)), kid, alg: "RS256", use: "sig" };
  const clientId = "gradecast-test";
  const clientSecret = "a-test-client-secret-of-enough-length-0123456789";
  const codes = new Map<string, { nonce: string }>();
  let fault: Fault = "none";
  let claims: Record<string, unknown> = {};
  let issuer = "";

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
      });
    }
    if (url.pathname === "/jwks") return json(200, { keys: [jwk] });
    if (url.pathname === "/authorize") {
      const code = randomBytes(16).toString("hex");
      codes.set(code, { nonce: url.searchParams.get("nonce") ?? "" });
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      const found = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      if (!found) return json(400, { error: "invalid_grant" });
      const now = Math.floor(Date.now() / 1000);
      const iat = fault === "expired" ? now - 3600 : now;
      const payload: Record<string, unknown> = { ...claims };
      if (fault === "wrong-nonce") payload.nonce = "another-sign-in";
      else if (fault !== "no-nonce") payload.nonce = found.nonce;
      const idToken = await new SignJWT(payload)
        .setProtectedHeader({ alg: "RS256", kid })
        .setIssuer(issuer)
        .setAudience(fault === "wrong-audience" ? "another-application" : clientId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 600)
        .sign(fault === "other-key" ? other.privateKey : good.privateKey);
      return json(200, {
        access_token: "at",
        token_type: "Bearer",
        expires_in: 600,
        id_token: idToken,
      });
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    get issuer() {
      return issuer;
    },
    clientId,
    clientSecret,
    next(f, c) {
      fault = f;
      claims = c;
    },
    async authorize(url) {
      const res = await fetch(url, { redirect: "manual" });
      await res.arrayBuffer();
      const location = res.headers.get("location");
      if (!location) throw new Error(`The issuer answered ${res.status}`);
      return location;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
