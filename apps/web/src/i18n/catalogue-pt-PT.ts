import type { Messages } from "./types.ts";

// The European Portuguese catalogue's public part: the areas of the pages seen before signing in (login,
// the public frame, the language choice, password pages, verification), the first screen's chunk.
// Every other area is in catalogue-pt-PT-app.ts, loaded with the first page that needs it (see
// catalogue.ts). The same list of areas is in both files (globs are literal): catalogue.test.ts
// checks that every area is in exactly one part. In the build each message is already parsed
// (vite.config.ts), so no ICU parser ships to the browser.
const files = import.meta.glob<Messages>(
  "../locales/pt-PT/{common,forgot,language,login,public,reset,verify}.json",
  {
    eager: true,
    import: "default",
  },
);

export default Object.assign({}, ...Object.values(files)) as Messages;
