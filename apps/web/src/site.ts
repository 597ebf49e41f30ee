// The developers' profiles shown on /contact. The support address there is the installation's
// own: CONTACT_EMAIL on the server, read through GET /api/site.
export const site = {
  profiles: [
    { label: "Gradecast on GitHub", href: "https://github.com/gradecast" },
    { label: "Gradecast on LinkedIn", href: "https://www.linkedin.com/company/gradecast" },
  ],
} as const;
