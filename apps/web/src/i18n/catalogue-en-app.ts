import type { Messages } from "./types.ts";

// The English catalogue's second part: every area not in catalogue-en.ts (the signed-in pages,
// registration, the questionnaire) and the text the contract shares with the server
// (packages/contract/src/locales/en). Loaded with the first page that needs it.
const files = import.meta.glob<Messages>(
  [
    "../locales/en/*.json",
    "!../locales/en/{common,forgot,language,login,public,reset,verify}.json",
    "../../../../packages/contract/src/locales/en/*.json",
    // The privacy notice's text: the server writes the notice in the reader's language.
    "!../../../../packages/contract/src/locales/en/privacy.json",
  ],
  { eager: true, import: "default" },
);

export default Object.assign({}, ...Object.values(files)) as Messages;
