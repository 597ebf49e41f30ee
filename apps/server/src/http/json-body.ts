import { messages } from "@gradecast/contract/messages";
import type { FastifyInstance } from "fastify";
import { DomainError, invalid } from "../domain-errors.ts";

// The one body type the API reads: a JSON object in UTF-8. Bytes that are not UTF-8 are refused
// (decoding them would store U+FFFD in place of what was typed), another charset gets 415, and a
// body that is not an object (null, an array, a number) gets 400 before any route sees it.
// Parsing itself is Fastify's (secure-json-parse, which refuses __proto__ and constructor keys).
const utf8 = new TextDecoder("utf-8", { fatal: true });

function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "");
  return match?.[1]?.toLowerCase();
}

export function installJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const charset = charsetOf(request.headers["content-type"]);
    if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
      done(
        new DomainError("unsupported", "unsupported_media_type", messages.bodyNotJson),
        undefined,
      );
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(invalid(messages.bodyNotUtf8), undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return done(invalid(messages.bodyNotObject), undefined);
      }
      done(null, value);
    });
  });
}
