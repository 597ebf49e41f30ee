import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";

/** The messages of one language: ICU text in tests and the dev tools, parsed ASTs in the build. */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;
