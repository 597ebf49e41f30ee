import { describe, expect, it } from "vitest";
import { negotiateLocale } from "./locale.ts";

describe("negotiateLocale", () => {
  it("takes the first supported language by weight", () => {
    expect(negotiateLocale("fr-FR,pt;q=0.8,en;q=0.5", "en")).toBe("pt-PT");
    expect(negotiateLocale("pt-BR;q=0.4, en-GB;q=0.9", "pt-PT")).toBe("en");
    expect(negotiateLocale("pt-PT", "en")).toBe("pt-PT");
  });

  it("falls back when nothing supported is asked for", () => {
    expect(negotiateLocale(undefined, "pt-PT")).toBe("pt-PT");
    expect(negotiateLocale("de-DE,fr;q=0.5", "en")).toBe("en");
    expect(negotiateLocale("*", "pt-PT")).toBe("pt-PT");
    expect(negotiateLocale("pt;q=0", "en")).toBe("en");
  });
});
