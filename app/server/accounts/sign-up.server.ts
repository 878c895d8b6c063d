import { searchKey } from "~/domain/search-key";
import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { SignUpInput } from "~/domain/accounts";
import { memberships, organizations, users } from "~/server/platform/database/tables.server";
import { memberActor, recordActivity } from "./activity.server";
import { db } from "~/server/platform/database/db.server";
import { sendVerificationLink } from "./email-verification.server";
import { linkOrigin, queueMail } from "~/server/mail/index.server";
import { mailOwnerOf, organizationRow } from "./organizations.server";
import { hashPassword } from "~/server/platform/passwords.server";
import { takeSignUp } from "~/server/platform/throttle.server";
import { greeting } from "./names-in-mail.server";
import { findUserByEmail, type UserRecord } from "./users.server";

/**
 * /signup: a company's first person makes its organization (one billing customer, created at the provider on
 * first need) and becomes its Owner, with an address to verify. The screen says the same whether or not the
 * address has an account already: its owner gets a mail saying someone tried, and nobody is signed in either way.
 */
export type SignUpOutcome = { sent: true } | { waitSeconds: number };

export async function signUp(
  request: Request,
  context: AppLoadContext | undefined,
  input: SignUpInput,
): Promise<SignUpOutcome> {
  const waitSeconds = await takeSignUp(context, input.email);
  if (waitSeconds > 0) return { waitSeconds };
  // Hashed either way, so an address that has an account takes as long as one that has none.
  const passwordHash = await hashPassword(input.new_password);
  const existing = await findUserByEmail(input.email);
  if (existing) {
    await mailSomeoneTried(request, existing);
    return { sent: true };
  }
  const user = {
    id: randomUUID(),
    email: input.email,
    searchEmail: searchKey(input.email),
    passwordHash,
    firstName: input.firstName,
    lastName: input.lastName,
    company: input.company,
  };
  const organization = organizationRow({ name: input.company, country: input.country });
  const created = await db.transaction(async (tx) => {
    // Two sign-ups with one address at once: the unique address lets one in; the other is told what everyone is.
    const inserted = await tx.insert(users).values(user).onConflictDoNothing().returning({ id: users.id });
    if (inserted.length === 0) return false;
    await tx.insert(organizations).values(organization);
    await tx.insert(memberships).values({ organizationId: organization.id, userId: user.id, role: "owner" });
    await recordActivity(tx, {
      organizationId: organization.id,
      actor: memberActor(user),
      action: "organization.created",
      summary: `Signed up and opened the organization ${organization.name}, as its Owner.`,
    });
    return true;
  });
  if (created) await sendVerificationLink(request, user);
  return { sent: true };
}

/** The owner of an address someone signed up with again: told, with the ways back into their account. */
async function mailSomeoneTried(request: Request, user: UserRecord) {
  await queueMail({
    accountId: await mailOwnerOf(user.id),
    to: user.email,
    subject: "Someone tried to create a GateKeeper Portal account with your address",
    content: {
      paragraphs: [
        greeting(user),
        `Someone just tried to create a GateKeeper Portal account with ${user.email}. You already have one, so nothing was created.`,
        "If it was you, sign in instead. If you forgot your password, you can set a new one from the sign-in page.",
      ],
      action: { label: "Sign in to the GateKeeper Portal", url: new URL("/login", linkOrigin(request)).href },
      after: ["If it was not you, you can ignore this message: your account has not changed."],
    },
  });
}
