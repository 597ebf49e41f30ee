import { noContentSchema } from "../api-responses.ts";
import { changePasswordSchema, updateNameSchema, userSchema } from "../auth.ts";
import { setLocaleSchema } from "../locale.ts";
import { defineRoute, kb, signedIn } from "../route.ts";

// The signed-in account itself (its email address: account-security.ts).

export const me = defineRoute({
  method: "GET",
  path: "/api/me",
  access: signedIn,
  summary: "The signed-in account",
  response: { 200: userSchema },
});

export const rename = defineRoute({
  method: "PATCH",
  path: "/api/me",
  access: signedIn,
  summary: "Change the account's name",
  body: updateNameSchema,
  response: { 200: userSchema },
});

export const setLocale = defineRoute({
  method: "PUT",
  path: "/api/me/locale",
  access: signedIn,
  summary: "Choose the account's language (null follows the browser's)",
  body: setLocaleSchema,
  response: { 200: userSchema },
});

export const changePassword = defineRoute({
  method: "POST",
  path: "/api/me/password",
  access: signedIn,
  summary: "Change the password (ends the other sessions)",
  body: changePasswordSchema,
  response: { 204: noContentSchema },
  bodyLimit: kb(10),
});
