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
