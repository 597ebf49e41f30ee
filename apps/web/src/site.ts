// The contact details shown on /contact. A school running its own Gradecast changes them here.
export const site = {
  supportEmail: "support@gradecast.local",
  profiles: [
    { label: "Gradecast on GitHub", href: "https://github.com/gradecast" },
    { label: "Gradecast on LinkedIn", href: "https://www.linkedin.com/company/gradecast" },
  ],
} as const;
