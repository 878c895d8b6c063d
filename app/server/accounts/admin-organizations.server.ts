import { requireAdmin, readAdminForm } from "./access.server";
import { json } from "@remix-run/node";
import { asc, desc, eq } from "drizzle-orm";
import { licenses, subscriptions } from "~/server/platform/database/tables.server";
import { GATEKEEPER } from "./activity.server";
import { getBilling } from "~/server/billing/index.server";
import { db } from "~/server/platform/database/db.server";
import { pendingInvitations, postInvitation } from "./invitations.server";
import { listJobsNeedingAttention } from "~/server/platform/jobs/runner.server";
import { createOrganizationForCustomer, findOrganization, memberPage } from "./organizations.server";
import { redirectWithToast } from "./session.server";
import { z } from "zod";
import { plainName } from "~/domain/names";

/**
 * An administrator's view of one organization (its members, pending invitations, licenses, subscriptions and the
 * jobs that need attention), and the invitation of its first Owner for a customer that sales onboards by hand.
 */
const SHOWN = 50;

export async function adminOrganizationPage(request: Request, organizationId: string) {
  await requireAdmin(request);
  const organization = await findOrganization(organizationId);
  if (!organization) throw json({ message: "There is no such organization." }, { status: 404 });
  const { total: memberTotal, members } = await memberPage(organizationId, 1, SHOWN);
  const planNames = new Map((await getBilling().listPlans()).map((plan) => [plan.id, plan.name]));
  return {
    organization,
    memberTotal,
    members,
    invitations: (await pendingInvitations(organizationId, 1, SHOWN)).invitations,
    licenses: await db
      .select()
      .from(licenses)
      .where(eq(licenses.ownerId, organizationId))
      .orderBy(desc(licenses.validFrom), asc(licenses.id))
      .limit(SHOWN),
    subscriptions: (
      await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.ownerId, organizationId))
        .orderBy(desc(subscriptions.updatedAt), asc(subscriptions.id))
        .limit(SHOWN)
    )
      // The plan by its name in the price list; an id the list does not know (a retired plan) as it is.
      .map((subscription) => ({
        ...subscription,
        planName: planNames.get(subscription.planId) ?? subscription.planId,
      })),
    jobs: await listJobsNeedingAttention(SHOWN, organizationId),
  };
}

/** The invitation an administrator sends (the first Owner, or any member): from GateKeeper. */
export async function adminInvite(request: Request, organizationId: string) {
  const { formData } = await readAdminForm(request);
  if (!(await findOrganization(organizationId)))
    throw json({ message: "There is no such organization." }, { status: 404 });
  return postInvitation(request, organizationId, formData, GATEKEEPER, `/admin/customers/${organizationId}`);
}

const newOrganizationSchema = z.object({
  name: plainName,
  customerType: z.enum(["customer", "distributor"], { errorMap: () => ({ message: "Choose a type." }) }),
});

/** Opens an organization with no member yet, and goes to its page to invite its first Owner. */
export async function adminCreateOrganization(request: Request) {
  const { formData } = await readAdminForm(request);
  const values = { name: String(formData.get("name") ?? ""), customerType: String(formData.get("customerType") ?? "") };
  const parsed = newOrganizationSchema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
    return json({ fieldErrors, values }, { status: 422 });
  }
  const id = await createOrganizationForCustomer(parsed.data);
  return redirectWithToast(request, `/admin/customers/${id}`, {
    kind: "success",
    message: `${parsed.data.name} was opened. Invite its first Owner.`,
  });
}
