import { describe, expect, it } from "vitest";
import { cardFormSchema } from "~/domain/billing-forms";
import { passwordChangeSchema, profileSchema } from "~/domain/profile";
import { parseLogin } from "~/domain/login";

const messageFor = (result: { error?: { issues: { path: (string | number)[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((issue) => issue.path.join(".") === field)?.message;

describe("text fields have a maximum length with a clear message", () => {
  it("names of people and organizations stop at 100 characters, addresses at 200", () => {
    const long = "x".repeat(201);
    const profile = profileSchema.safeParse({
      firstName: "x".repeat(101),
      lastName: "L",
      company: "C",
      phone_country: "US",
      phone: "",
    });
    expect(messageFor(profile, "firstName")).toBe("Too long: at most 100 characters.");
    const card = cardFormSchema.safeParse({
      first_name: "A",
      last_name: "B",
      address_line1: long,
      address_city: "C",
      address_state: "S",
      address_zip: "1",
      address_country: "US",
      card_number: "4242",
    });
    expect(messageFor(card, "address_line1")).toBe("Too long: at most 200 characters.");
    expect(
      profileSchema
        .safeParse({
          firstName: "x".repeat(100),
          lastName: "L",
          company: "C".repeat(100),
          phone_country: "US",
          phone: "",
        })
        .error?.issues.map((issue) => issue.path.join(".")),
    ).toEqual(["phone"]);
  });

  it("emails stop at 254 and passwords at 256 characters", () => {
    const login = (fields: Record<string, string>) => parseLogin(new URLSearchParams(fields));
    expect(login({ email: `${"a".repeat(250)}@example.com`, password: "p" })).toMatchObject({
      errors: { email: "Too long: at most 254 characters." },
    });
    expect(login({ email: "a@example.com", password: "p".repeat(257) })).toMatchObject({
      errors: { password: "Too long: at most 256 characters." },
    });
    expect(
      messageFor(
        passwordChangeSchema.safeParse({ old_password: "p".repeat(257), new_password: "", confirm_password: "" }),
        "old_password",
      ),
    ).toBe("Too long: at most 256 characters.");
  });
});
