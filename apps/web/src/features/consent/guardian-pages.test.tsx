import { consentMessages, consentText, consentTextVersion } from "@gradecast/contract/consent";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage } from "../../test/render.tsx";
import { GuardianConsent, GuardianWithdraw } from "./guardian-pages.tsx";

// The guardian's pages (issue 31): the link's token goes to the API in the body only and leaves
// the address bar at once; the page shows who asks and the consent text, records the consent,
// and says plainly when the link is not valid. Withdrawal asks for a confirmation first.

const view = {
  studentName: "Rita Sousa",
  guardianEmail: "parent@example.org",
  text: consentText,
  textVersion: consentTextVersion,
  state: "pending",
};

function openLink(path: string) {
  window.history.replaceState(null, "", path);
}

describe("the guardian's consent page", () => {
  it("shows who asks and the text, records the consent, and keeps the token out of URLs", async () => {
    openLink("/consent?token=secret-token-1");
    const server = fakeServer({
      "POST /api/consent/view": () => ({ body: view }),
      "POST /api/consent/confirm": () => ({ body: { ...view, state: "given" } }),
    });
    const { user } = renderPage(<GuardianConsent />, "/consent");
    expect(await screen.findByText("Rita Sousa")).toBeTruthy();
    expect(window.location.search).toBe("");
    expect(screen.getByText(`Consent text version ${consentTextVersion}.`)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "I consent" }));
    expect(await screen.findByText(/your consent for Rita Sousa is recorded/)).toBeTruthy();
    expect(server.calls.map((c) => c.route)).toEqual([
      "POST /api/consent/view",
      "POST /api/consent/confirm",
    ]);
    // The confirmation names the version of the text shown (the English one here).
    expect(server.calls.map((c) => c.body)).toEqual([
      { token: "secret-token-1" },
      { token: "secret-token-1", textVersion: consentTextVersion },
    ]);
    expect(screen.getByRole("link", { name: "privacy notice" }).getAttribute("href")).toBe(
      "/privacy",
    );
  });

  it("says an expired or unknown link is not valid, and offers no button", async () => {
    openLink("/consent?token=old");
    fakeServer({
      "POST /api/consent/view": () => ({
        status: 400,
        body: { error: { code: "invalid_token", message: consentMessages.linkInvalid } },
      }),
    });
    renderPage(<GuardianConsent />, "/consent");
    expect(await screen.findByText(consentMessages.linkInvalid)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "I consent" })).toBeNull();
  });

  it("says a link without its token is incomplete, asking the API nothing", async () => {
    openLink("/consent");
    const server = fakeServer({});
    renderPage(<GuardianConsent />, "/consent");
    expect(await screen.findByText(/This link is incomplete/)).toBeTruthy();
    expect(server.calls).toEqual([]);
  });
});

describe("the guardian's withdrawal page", () => {
  it("withdraws only after the confirmation step, and can be left unchanged", async () => {
    openLink("/consent/withdraw?token=withdraw-1");
    const server = fakeServer({
      "POST /api/consent/withdraw": () => ({ body: { message: "Your consent is withdrawn." } }),
    });
    const { user } = renderPage(<GuardianWithdraw />, "/consent/withdraw");
    expect(window.location.search).toBe("");
    await user.click(await screen.findByRole("button", { name: "Withdraw consent" }));
    await user.click(screen.getByRole("button", { name: "Keep my consent" }));
    expect(server.calls).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Withdraw consent" }));
    await user.click(screen.getByRole("button", { name: "Yes, withdraw" }));
    await waitFor(() => expect(screen.getByText("Your consent is withdrawn.")).toBeTruthy());
    expect(server.calls).toEqual([
      { route: "POST /api/consent/withdraw", body: { token: "withdraw-1" } },
    ]);
  });
});
