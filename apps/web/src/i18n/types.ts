import type { MessageFormatElement } from "react-intl";

/** The messages of one language: ICU text in tests and the dev tools, parsed ASTs in the build. */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;
