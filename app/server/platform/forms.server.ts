import { json } from "@remix-run/node";
import { requireAdmin, requireSession } from "~/server/accounts/auth.server";
import { validateCsrf } from "~/server/accounts/csrf.server";

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * Field names no portal form has, that name an object's prototype. remix-validated-form reads "a.b[0]"
 * names as paths into an object and throws on these, so they must never reach it.
 */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const namesPrototype = (name: string) => name.split(/[.[\]]/).some((segment) => PROTOTYPE_KEYS.has(segment));

/** 400 for a body that is not a form (JSON, plain text, a broken multipart body): never a 500. */
export async function readForm(request: Request): Promise<FormData> {
  const malformed = () => json({ message: "This request is not a form the portal can read." }, { status: 400 });
  if (!FORM_TYPES.test(request.headers.get("Content-Type") ?? "")) throw malformed();
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    throw malformed();
  }
  // A multipart body whose parts could not be found parses as an empty form: it is no form either.
  if (formData.keys().next().done && /multipart/i.test(request.headers.get("Content-Type") ?? "")) throw malformed();
  for (const name of formData.keys()) if (namesPrototype(name)) throw malformed();
  return formData;
}

/** The start of every form action: a signed-in user, the posted form, and this session's CSRF token. */
export async function readUserForm(request: Request) {
  const { user, session } = await requireSession(request);
  const formData = await readForm(request);
  await validateCsrf(formData, request, session);
  return { user, session, formData, intent: String(formData.get("intent") ?? "") };
}

/** The start of an administrator's form action: a GateKeeper administrator (else 403), the form, its CSRF token. */
export async function readAdminForm(request: Request) {
  await requireAdmin(request);
  return readUserForm(request);
}
