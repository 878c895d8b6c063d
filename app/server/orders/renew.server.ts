import { redirect } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { subscriptionStepUrl } from "~/domain/subscription-steps";
import { cycleOf, listId, tierOf, type Hosting } from "~/domain/subscription";
import { portalNow } from "~/server/billing/index.server";
import { billingAccountOf, readMemberForm, redirectWithToast, type Scope } from "~/server/accounts/index.server";
import { subscriptionCopy } from "~/server/subscriptions/index.server";
import { db } from "~/server/platform/database/db.server";
import { licenses } from "~/server/platform/database/tables.server";
import { subscriptionWizard } from "./new-subscription-wizard.server";

/**
 * 'Renew' on a recurring license whose subscription ended: a new license's wizard, started afresh with the ended
 * one's organization, plan, billing period, users and hosting filled in (a read of the page never writes: this is
 * the form's post), as the member's draft. False when the license is not the organization's, not recurring, or
 * still running.
 */
export async function startRenewal(member: Scope, licenseId: string, now: Date): Promise<boolean> {
  const account = billingAccountOf(member.organization);
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), eq(licenses.ownerId, account.ownerId), eq(licenses.type, "recurring")));
  if (!license || license.validTo > now) return false;
  const copy = license.subscriptionId ? await subscriptionCopy(account, license.subscriptionId) : null;
  if (copy && copy.status !== "cancelled") return false;
  const addonIds = (copy?.addons ?? []).map((addon) => listId(addon.id));
  const hosting: Hosting = addonIds.some((id) => id.startsWith("on-premise-install"))
    ? "on-premise"
    : addonIds.some((id) => id.startsWith("gatekeeper-cloud")) || license.hasCloudSupport
      ? "cloud"
      : "on-premise";
  await subscriptionWizard.clear(member);
  await subscriptionWizard.save(member, {
    organization: license.name,
    tier: (copy && tierOf(copy.planId)) ?? license.planType,
    cycle: (copy && cycleOf(copy.planId)) ?? "monthly",
    users: copy?.planQuantity ?? license.nodes,
    hosting,
    offsiteAccess: addonIds.some((id) => id.startsWith("offsite-access")),
  });
  return true;
}

/** 'Renew' posted: the new license's wizard filled in from the ended one, or back to the licenses page. */
export async function renewFromLicense(request: Request, licenseId: string) {
  const { member } = await readMemberForm(request, "purchase");
  if (await startRenewal(member, licenseId, await portalNow())) return redirect(subscriptionStepUrl("plan"));
  return redirectWithToast(request, "/licenses", {
    kind: "info",
    message: "Only a license that has stopped, and whose subscription ended, is renewed as a new license.",
  });
}
