import type { Messages } from "./types.ts";

// The European Portuguese catalogue: the web's own files (apps/web/src/locales/pt-PT) and the text the contract
// shares with the server (packages/contract/src/locales/pt-PT), one chunk. In the build each message
// is already parsed (vite.config.ts), so no ICU parser ships to the browser.
const files = import.meta.glob<Messages>(
  ["../locales/pt-PT/*.json", "../../../../packages/contract/src/locales/pt-PT/*.json"],
  { eager: true, import: "default" },
);

export default Object.assign({}, ...Object.values(files)) as Messages;
