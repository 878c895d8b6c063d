import { DEMO, DEMO_PASSWORD, expect, signIn, signInAs, test } from "./fixtures";

test.describe("the profile form", () => {
  test.use({ expectedHttpErrors: [422] });

  test("says what is wrong next to the field, keeps what was typed, and saves once it is right", async ({ page }) => {
    await signInAs(page, DEMO.distributor);
    await page.goto("/account");
    const profile = page.getByRole("region", { name: "Profile" });
    await expect(profile.getByLabel("First name")).toHaveValue("Ravi");
    await expect(profile.getByLabel("Country code")).toHaveValue("GB");

    await profile.getByLabel("Company").fill("");
    await profile.getByLabel("Phone", { exact: false }).last().fill("12");
    await profile.getByRole("button", { name: "Save profile" }).click();
    await expect(profile.getByText("Cannot be empty.")).toBeVisible();
    await expect(profile.getByText("Invalid phone number.")).toBeVisible();
    await expect(profile.getByLabel("Last name")).toHaveValue("Patel");
    await expect(profile.locator('input[name="phone"]')).toHaveValue("12");

    await profile.getByLabel("Company").fill("SecureLine Partners");
    await profile.getByLabel("Country code").selectOption("US");
    await profile.locator('input[name="phone"]').fill("(206) 555-0147");
    await profile.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByRole("status")).toContainText("Your profile was saved.");
    await page.reload();
    await expect(profile.getByLabel("Company")).toHaveValue("SecureLine Partners");
    await expect(profile.getByLabel("Country code")).toHaveValue("US");
    await expect(profile.locator('input[name="phone"]')).toHaveValue("(206) 555-0147");
  });
});

test.describe("changing the password", () => {
  test.use({ expectedHttpErrors: [401, 422] });

  test("checks the current password, the requirements and the confirmation, then signs in with the new one", async ({
    page,
  }) => {
    // Eight scrypt hashes at OWASP's cost (sign-ins and changes), each seconds long on a busy 2-core machine.
    test.slow();
    await signInAs(page, DEMO.admin);
    await page.goto("/account");
    const form = page.getByRole("region", { name: "Change password" });
    const submit = () => form.getByRole("button", { name: "Change password" }).click();

    await form.getByLabel("Current password").fill("");
    await form.locator('input[name="new_password"]').fill("short");
    await form.getByLabel("Confirm new password").fill("other");
    await submit();
    await expect(form.getByText("Cannot be empty.")).toBeVisible();
    await expect(form.getByText("Doesn't match requirements.")).toBeVisible();
    await expect(form.getByText("Doesn't match new password.")).toBeVisible();
    await expect(form.getByRole("listitem").filter({ hasText: "At least 10 characters" })).toContainText("(not met)");
    await expect(form.getByRole("listitem").filter({ hasText: "A lowercase letter" })).toContainText("(met)");

    const newPassword = "Sturdy-Gate-2026";
    await form.getByLabel("Current password").fill("not-my-password");
    await form.locator('input[name="new_password"]').fill(newPassword);
    await form.getByLabel("Confirm new password").fill(newPassword);
    await submit();
    await expect(form.getByText("The current password is incorrect.")).toBeVisible();

    await form.getByLabel("Current password").fill(DEMO_PASSWORD);
    await form.locator('input[name="new_password"]').fill(newPassword);
    await form.getByLabel("Confirm new password").fill(newPassword);
    await submit();
    await expect(page.getByRole("status")).toContainText("Your password was changed.", { timeout: 20_000 });

    await page.getByText("Alex Morgan").click();
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    // As a person would: the sign-in page first. Going to /login at once could cancel the sign-out still in flight.
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, DEMO.admin, DEMO_PASSWORD);
    await expect(page.getByRole("alert")).toContainText("The email or password is incorrect.");
    await signIn(page, DEMO.admin, newPassword);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

    // Put the demo password back: other tests of this worker sign in as the admin.
    await page.goto("/account");
    await form.getByLabel("Current password").fill(newPassword);
    await form.locator('input[name="new_password"]').fill(DEMO_PASSWORD);
    await form.getByLabel("Confirm new password").fill(DEMO_PASSWORD);
    await submit();
    await expect(page.getByRole("status")).toContainText("Your password was changed.", { timeout: 20_000 });
  });
});
