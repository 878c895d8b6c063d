import { redirect } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { cycleOf, listId, tierOf, type Hosting } from "~/domain/subscription";
import { portalNow } from "~/server/billing/index.server";
import { billingAccountOf, readMemberForm, redirectWithToast, type Scope } from "~/server/accounts/index.server";
import { subscriptionCopy } from "~/server/subscriptions/index.server";
import { db } from "~/server/platform/database/db.server";
import { licenses } from "~/server/platform/database/tables.server";
import { OWN_ORDER, subscriptionWizardFor } from "./new-subscription-wizard.server";

/**
 * 'Renew' on a recurring license whose subscription ended: a new license's wizard, started afresh with the ended
 * one's organization, plan, billing period, users and hosting filled in (a read of the page never writes: this is
 * the form's post), as the member's draft: of the license's end customer when a distributor bought it for one.
 * The plan step's URL, or null when the license is not the organization's, not recurring, or still running.
 */
export async function startRenewal(member: Scope, licenseId: string, now: Date): Promise<string | null> {
  const account = billingAccountOf(member.organization);
  const [license] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, licenseId), eq(licenses.ownerId, account.ownerId), eq(licenses.type, "recurring")));
  if (!license || license.validTo > now) return null;
  const copy = license.subscriptionId ? await subscriptionCopy(account, license.subscriptionId) : null;
  if (copy && copy.status !== "cancelled") return null;
  const addonIds = (copy?.addons ?? []).map((addon) => listId(addon.id));
  const hosting: Hosting = addonIds.some((id) => id.startsWith("on-premise-install"))
    ? "on-premise"
    : addonIds.some((id) => id.startsWith("gatekeeper-cloud")) || license.hasCloudSupport
      ? "cloud"
      : "on-premise";
  const { wizard } = license.licenseeId ? await subscriptionWizardFor(member, license.licenseeId) : OWN_ORDER;
  await wizard.clear(member);
  await wizard.save(member, {
    organization: license.name,
    tier: (copy && tierOf(copy.planId)) ?? license.planType,
    cycle: (copy && cycleOf(copy.planId)) ?? "monthly",
    users: copy?.planQuantity ?? license.nodes,
    hosting,
    offsiteAccess: addonIds.some((id) => id.startsWith("offsite-access")),
  });
  return wizard.urlOf("plan");
}

/** 'Renew' posted: the new license's wizard filled in from the ended one, or back to the licenses page. */
export async function renewFromLicense(request: Request, licenseId: string) {
  const { member } = await readMemberForm(request, "purchase");
  const planStep = await startRenewal(member, licenseId, await portalNow());
  if (planStep) return redirect(planStep);
  return redirectWithToast(request, "/licenses", {
    kind: "info",
    message: "Only a license that has stopped, and whose subscription ended, is renewed as a new license.",
  });
}
