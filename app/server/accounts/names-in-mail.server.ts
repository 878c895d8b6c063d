import { isPlainName, quotedName } from "~/domain/names";

/**
 * What the portal's mail says of names people typed. Mail carries only what the portal vouches for: a person's
 * own name only in mail to an address they have proved is theirs (before that, anyone could have typed the name
 * along with someone else's address), and a name kept from before names had to be plain names only as data, in
 * quotes, never as if the portal said it.
 */

/** A mail's first line to an account's own address. */
export function greeting(user: { firstName: string; emailVerifiedAt: Date | null }): string {
  return user.emailVerifiedAt && isPlainName(user.firstName) ? `Hello ${user.firstName},` : "Hello,";
}

/** An organization as a mail names it. */
export const organizationInMail = (name: string) =>
  isPlainName(name) ? name : `an organization that calls itself ${quotedName(name)}`;

/** A person (who invites, say) as a mail names them at the start of a sentence. */
export const personInMail = (name: string) =>
  isPlainName(name) ? name : `Someone who calls themselves ${quotedName(name)}`;
