/**
 * Which cloud Hub subdomains the Hub service refuses, with 'This subdomain is not allowed. Please choose a
 * different one.' The lists are the portal's own: the names of the service's own hosts, and words that would pass
 * a Hub off as GateKeeper or as something it is not.
 */
export const RESERVED_SUBDOMAINS: readonly string[] = [
  "account",
  "accounts",
  "admin",
  "administrator",
  "api",
  "billing",
  "cloud",
  "console",
  "dashboard",
  "localhost",
  "mailer",
  "portal",
  "support",
  "status",
  "webmail",
];

/** Fragments no subdomain may contain, wherever they appear ("xn--" would make a look-alike name). */
export const FORBIDDEN_SUBDOMAIN_FRAGMENTS: readonly string[] = ["gatekeeper", "phishing", "xn--"];

/** The form the service stores and compares: subdomains are case-insensitive. */
export const normalSubdomain = (subdomain: string) => subdomain.trim().toLowerCase();

export function isSubdomainAllowed(subdomain: string): boolean {
  const name = normalSubdomain(subdomain);
  return (
    !RESERVED_SUBDOMAINS.includes(name) && !FORBIDDEN_SUBDOMAIN_FRAGMENTS.some((fragment) => name.includes(fragment))
  );
}

export const SUBDOMAIN_MESSAGES = {
  characters: "Alphanumeric characters and hyphens only.",
  tooShort: "Must have six or more characters.",
  notAllowed: "This subdomain is not allowed. Please choose a different one.",
  taken: "This domain is unavailable. Please choose a different domain.",
  checkFailed: "Unable to validate your domain at this time.",
} as const;

/** A DNS label holds at most 63 characters. */
export const SUBDOMAIN_MAX_LENGTH = 63;

/** What is wrong with a subdomain's form, before asking the Hub service; null when nothing. */
export function subdomainProblem(subdomain: string): string | null {
  const name = normalSubdomain(subdomain);
  if (!/^[a-z0-9-]*$/.test(name)) return SUBDOMAIN_MESSAGES.characters;
  if (name.length < 6) return SUBDOMAIN_MESSAGES.tooShort;
  if (name.length > SUBDOMAIN_MAX_LENGTH) return `Must have ${SUBDOMAIN_MAX_LENGTH} or fewer characters.`;
  if (!isSubdomainAllowed(name)) return SUBDOMAIN_MESSAGES.notAllowed;
  return null;
}
