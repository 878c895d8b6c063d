import { DEMO, expect, signIn, signInAs, test } from "./fixtures";

test.describe("signing in", () => {
  test("a visitor who is not signed in is sent to the login page and comes back to where they were going", async ({
    page,
  }) => {
    await page.goto("/licenses");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Flicenses$/);
    await page.getByLabel("Email").fill(DEMO.customer);
    await page.getByLabel("Password").fill("GateKeeper-demo-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/licenses$/);
    await expect(page.getByRole("heading", { level: 1, name: "Licenses" })).toBeVisible();
  });

  test("support's link to /hubs?new=true survives sign-in and the login page knows it came from the Hubs page", async ({
    page,
  }) => {
    await page.goto("/hubs?new=true");
    const loginUrl = new URL(page.url());
    expect(loginUrl.pathname).toBe("/login");
    expect(loginUrl.searchParams.get("source")).toBe("hubs");
    expect(loginUrl.searchParams.get("redirectTo")).toBe("/hubs?new=true");
    await expect(page.getByText("Sign in to see and deploy your GateKeeper Hubs.")).toBeVisible();

    await page.getByLabel("Email").fill(DEMO.customer);
    await page.getByLabel("Password").fill("GateKeeper-demo-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/hubs\/new\/url$/);
    await expect(page.getByRole("heading", { level: 1, name: "GateKeeper Hub Deployments" })).toBeVisible();
  });

  test.describe("with a wrong password", () => {
    test.use({ expectedHttpErrors: [401] });
    test("says the credentials are wrong and keeps the email", async ({ page, javaScriptEnabled }) => {
      await signIn(page, DEMO.customer, "not-the-password");
      await expect(page.getByRole("alert")).toContainText("The email or password is incorrect.");
      await expect(page.getByLabel("Email")).toHaveValue(DEMO.customer);
      // The server never writes the password back into the page.
      if (!javaScriptEnabled) await expect(page.getByLabel("Password")).toHaveValue("");
      await expect(page).toHaveURL(/\/login/);
    });
  });

  test.describe("with an empty form", () => {
    test.use({ expectedHttpErrors: [422] });
    test("shows the message next to each field", async ({ page }) => {
      await page.goto("/login");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByText("Enter your email address.")).toBeVisible();
      await expect(page.getByText("Enter your password.")).toBeVisible();
    });
  });

  test("with JavaScript, a field says what is wrong when the user leaves it", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the check on blur runs in the browser");
    await page.goto("/login");
    const email = page.getByLabel("Email");
    await email.fill("not-an-email");
    await email.blur();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await email.fill(DEMO.customer);
    await email.blur();
    await expect(page.getByText("Enter a valid email address.")).toHaveCount(0);
  });

  for (const email of Object.values(DEMO)) {
    test(`${email} signs in and out`, async ({ page }) => {
      await signInAs(page, email);
      await page.getByText(/Dana Whitfield|Ravi Patel|Alex Morgan/).click();
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.goto("/home");
      await expect(page).toHaveURL(/\/login\?redirectTo=%2Fhome$/);
    });
  }

  test("a signed-in user who opens the login page goes straight to the portal", async ({ page }) => {
    await signInAs(page, DEMO.customer);
    await page.goto("/login?redirectTo=%2Fstore");
    await expect(page).toHaveURL(/\/store$/);
  });
});
