import type { Page } from "playwright-core";

// Signing up and in through the screens, as a person does, for the browser tests. Each step
// waits for the page it leads to, not only for its address: every route is a lazily loaded
// chunk, and until the chunk has loaded the router keeps showing the previous page under the new
// address, so typing as soon as the address reads /login could fill the sign-up form's fields
// and then submit an empty login form (seen as a rare timeout on a busy machine).

export interface Person {
  name: string;
  email: string;
  password: string;
}

const loginHeading = (page: Page) => page.getByRole("heading", { level: 1, name: "Login" });

/** /register, then the login page it leads to. `role` picks Student or Teacher. */
export async function signUp(page: Page, who: Person, role?: "Student" | "Teacher") {
  await page.goto("/register");
  await page.getByRole("heading", { level: 1, name: "Sign Up" }).waitFor();
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  if (role) await page.getByLabel("Role").selectOption({ label: role });
  await page.getByRole("button", { name: "Sign Up" }).click();
  await page.waitForURL(/\/login$/);
  await loginHeading(page).waitFor();
}

/** Signs in on the login page (opened first unless it is showing) and waits for /Home. */
export async function logIn(page: Page, who: Pick<Person, "email" | "password">) {
  if (new URL(page.url()).pathname !== "/login") await page.goto("/login");
  await loginHeading(page).waitFor();
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
  try {
    await page.waitForURL(/\/Home$/, { timeout: 30_000 });
  } catch (err) {
    throw new Error(
      `login did not reach /Home: ${page.url()} ${await page.locator("main").textContent()}`,
      { cause: err },
    );
  }
}
