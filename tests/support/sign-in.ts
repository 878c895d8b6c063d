import { action as loginAction } from "~/routes/login";
import { cookieFrom, formRequest, respond } from "./requests";

const signedIn = new Map<string, string>();

/** The session cookie of a demo account signed in through the sign-in page's action, once per test file. */
export async function demoCookie(email: string): Promise<string> {
  const known = signedIn.get(email);
  if (known) return known;
  const response = await respond(async () =>
    loginAction({
      request: await formRequest("/login", { email, password: "GateKeeper-demo-1" }),
      params: {},
      context: {},
    }),
  );
  const cookie = cookieFrom(response.headers.get("Set-Cookie"));
  signedIn.set(email, cookie);
  return cookie;
}

/** The password the sign-up forms of the tests choose. */
export const NEW_PASSWORD = "Brand-new-pass-1";

/** A sign-up form that the page accepts, with some of its fields replaced. */
export const signUpForm = (email: string, replaced: Record<string, string> = {}) => ({
  firstName: "Nora",
  lastName: "Newman",
  company: "Newman Labs",
  email,
  new_password: NEW_PASSWORD,
  confirm_password: NEW_PASSWORD,
  country: "DE",
  ...replaced,
});
