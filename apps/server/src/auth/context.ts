import type { EmbedSigner } from "../analytics/embed-token.ts";
import type { Services } from "../services.ts";
import type { SigningKeys } from "./tokens.ts";

/** What the account calls work with: the app's services and its signing keys. */
export interface AuthContext {
  services: Services;
  keys: SigningKeys;
  /** Signs and checks the analytics report's embed tokens. */
  embed: EmbedSigner;
}

export interface Origin {
  ip: string | null;
  /** The browser's User-Agent, cut to 300 characters: shown in the list of sessions. */
  userAgent?: string | null;
}
