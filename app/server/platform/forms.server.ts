import { randomUUID } from "node:crypto";
import { json } from "@remix-run/node";

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A form's idempotency key (a hidden field its page rendered) when it has the shape this server gives, else a fresh one. */
export const idempotencyKeyOf = (formData: FormData) => {
  const posted = formData.get("idempotency_key");
  return typeof posted === "string" && UUID.test(posted) ? posted : randomUUID();
};
