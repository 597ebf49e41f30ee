/// <reference path="./oidc-provider-types.d.ts" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

// A real OpenID provider for the tests (the oidc-provider package), on a free port of this
// machine: a client registered with the redirect URI of the app under test, accounts whose
// claims each test sets, and a login without a browser: the provider's interaction page is
// answered here for whichever account the test names (`as`), so that a test follows the
// provider's redirects with fetch (`authorize`), cookies and all.

export interface TestAccountClaims {
  email?: string;
  email_verified?: boolean;
  name?: string;
  hd?: string;
  tid?: string;
  groups?: string[];
  amr?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client with the app's callback address (when not given at the start). */
  register(redirectUris: string[]): void;
  /** The account a browser's sign-in at the provider becomes. */
  browserSignsInAs(sub: string): void;
  /** Adds (or replaces) an account: its subject and claims. */
  account(sub: string, claims: TestAccountClaims): void;
  /** Follows the provider from its authorization URL, signing in as `sub`, to the app's callback URL. */
  authorize(url: string, sub: string): Promise<string>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

export async function startTestProvider(options: {
  /** Unset: the client is registered later (`register`), once the app's address is known. */
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  clientId?: string;
}): Promise<TestProvider> {
  const accounts = new Map<string, TestAccountClaims>();
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => handler(req, res));
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? "gradecast-test";
  const clientSecret = "a-test-client-secret-of-enough-length-0123456789";
  const next = new Map<string, string>();
  // Whom a browser (which does not say) signs in as.
  let browserAccount = "";
  const register = (redirectUris: string[]) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          post_logout_redirect_uris:
            options.postLogoutRedirectUris ??
            redirectUris.map((uri) => `${new URL(uri).origin}/login`),
          response_types: ["code"],
          grant_types: ["authorization_code"],
          token_endpoint_auth_method: "client_secret_post",
        },
      ],
      // Scope claims go into the ID token (as Google's and Microsoft's do), which is what the app reads.
      conformIdTokenClaims: false,
      claims: {
        amr: null,
        openid: ["sub", "hd", "tid", "groups", "amr"],
        email: ["email", "email_verified"],
        profile: ["name"],
      },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      cookies: { keys: ["a-test-cookie-key-0123456789"] },
      findAccount: async (_ctx: unknown, sub: string) => {
        const claims = accounts.get(sub);
        if (!claims) return undefined;
        return { accountId: sub, claims: async () => ({ sub, ...claims }) };
      },
    });
    const callback = provider.callback();
    handler = (req, res) => {
      const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? "");
      if (!interaction) {
        callback(req, res);
        return;
      }
      // The login and consent pages, answered at once for the account the test asked for.
      (async () => {
        const details = await provider.interactionDetails(req, res);
        const sub = next.get(String(details.params.state ?? "")) ?? browserAccount;
        const grant = new provider.Grant({
          accountId: sub,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: sub, amr: accounts.get(sub)?.amr }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    };
  };
  if (options.redirectUris) register(options.redirectUris);

  async function authorize(url: string, sub: string): Promise<string> {
    const state = new URL(url).searchParams.get("state") ?? "";
    next.set(state, sub);
    const jar = new Map<string, string>();
    let at = url;
    for (let hop = 0; hop < 10; hop++) {
      if (!at.startsWith(issuer)) return at;
      const res = await fetch(at, {
        redirect: "manual",
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const eq = pair?.indexOf("=") ?? -1;
        if (pair && eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
      }
      const location = res.headers.get("location");
      await res.arrayBuffer();
      if (!location) throw new Error(`The provider answered ${res.status} at ${at}`);
      at = new URL(location, at).href;
    }
    throw new Error("The provider redirected too many times");
  }

  return {
    issuer,
    clientId,
    clientSecret,
    register,
    browserSignsInAs: (sub) => {
      browserAccount = sub;
    },
    account: (sub, claims) => accounts.set(sub, claims),
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
