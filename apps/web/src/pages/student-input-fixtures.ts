// The server's answers the questionnaire's tests share.

/** No guardian's consent needed (the public-task basis): the form shows (issue 31). */
export const consentNotNeeded = {
  "GET /api/consent/mine": () => ({
    body: {
      legalBasis: "public-task",
      state: "not_needed",
      digitalConsentAge: 13,
      guardianEmail: null,
      requestedAt: null,
      consentedAt: null,
      withdrawnAt: null,
    },
  }),
};

/** Nothing sent yet: no saved questionnaire, no prediction. */
export const nothingSent = {
  ...consentNotNeeded,
  "GET /api/students/mine": () => ({ body: { items: [] } }),
  "GET /api/predictions/mine": () => ({ body: { items: [], latest: null } }),
};
