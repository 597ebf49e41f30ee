import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { renderAs, testUser } from "../../test/render.tsx";
import FlagSummaryCard from "./flag-summary.tsx";

// The evaluation page's card of flag judgements in European Portuguese (issue 33).

const admin = testUser("admin", { locale: "pt-PT" });

describe("the flag judgements in Portuguese", () => {
  test("headings and the share judged useful", async () => {
    renderAs(admin, <FlagSummaryCard />, "/evaluation", {
      "/api/evaluation/flags": {
        versions: [
          {
            modelVersion: "v3",
            judged: 3,
            acknowledged: 2,
            notUseful: 1,
            incorrect: 0,
            usefulShare: 2 / 3,
          },
        ],
      },
    });
    expect(await screen.findByText("O juízo dos professores sobre os alertas")).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "Considerados úteis" })).toBeTruthy();
    expect(screen.getByText(/^67\s?%$/)).toBeTruthy();
  });

  test("no flag judged yet", async () => {
    renderAs(admin, <FlagSummaryCard />, "/evaluation", {
      "/api/evaluation/flags": { versions: [] },
    });
    expect(await screen.findByText("Ainda nenhum alerta foi avaliado.")).toBeTruthy();
  });
});
