import { LOGIN_FIELDS, loginFieldError } from "~/domain/login";
import { checkOnBlur, dismissableToasts, prefetchForNextPages } from "./plain-page";

// The sign-in page's script (decision 138), built by scripts/build-page-scripts.mjs.
for (const field of LOGIN_FIELDS) checkOnBlur(field, (value) => loginFieldError(field, value));
dismissableToasts();
prefetchForNextPages();
