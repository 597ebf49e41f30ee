// The command that makes a fresh installation's first admin, as the README gives it: the start-up
// banner and the login page show it until an admin exists. Its own module, free of zod, because
// the login page is the first screen and has a size budget (scripts/check-bundle.mjs).
export const adminCreateCommand =
  'npm run admin:create -- --email head@school.example --name "Head Teacher"';
