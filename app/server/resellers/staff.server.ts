import { json } from "@remix-run/node";
import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { countryName } from "~/domain/countries";
import { END_CUSTOMERS_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import {
  findOrganization,
  GATEKEEPER,
  readAdminForm,
  recordActivity,
  redirectWithToast,
  requireAdmin,
  userMay,
  type OrganizationRecord,
} from "~/server/accounts/index.server";
import { db } from "~/server/platform/database/db.server";
import { licenses, organizations } from "~/server/platform/database/tables.server";
import { endCustomerCount } from "./end-customers.server";

/**
 * What GateKeeper's administrators see of distributors and their end customers (/admin/customers/…): a
 * distributor's customers, paged in SQL, an end customer's distributor, and moving an end customer to another
 * distributor. A move changes who manages the customer, nothing else: the licenses the old distributor bought for
 * it stay that distributor's to pay for and renew until they end (their subscriptions are its own at the billing
 * provider), and the new distributor sees them on the customer's page as held through another distributor.
 */

/** How many distributors the move form offers, by name: far more than GateKeeper has. */
const RESELLER_CHOICES = 500;

export const CHOOSE_RESELLER = "Choose the distributor to move this customer to.";

/** The organization of an administration page, or 404. */
async function requireOrganization(organizationId: string): Promise<OrganizationRecord> {
  const organization = await findOrganization(organizationId);
  if (!organization) throw json({ message: "There is no such organization." }, { status: 404 });
  return organization;
}

/** One page of a distributor's end customers by name, each with how many licenses it holds, and how many in all. */
async function endCustomersOf(distributorId: string, page: number) {
  const where = eq(organizations.managedBy, distributorId);
  const [total, rows] = await Promise.all([
    endCustomerCount(distributorId),
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        country: organizations.country,
        licenses:
          sql<number>`(select count(*) from ${licenses} where ${eq(licenses.licenseeId, organizations.id)})`.mapWith(
            Number,
          ),
      })
      .from(organizations)
      .where(where)
      .orderBy(asc(organizations.name), asc(organizations.id))
      .limit(END_CUSTOMERS_PER_PAGE)
      .offset((page - 1) * END_CUSTOMERS_PER_PAGE),
  ]);
  return {
    total,
    customers: rows.map((row) => ({ ...row, country: row.country ? countryName(row.country) : "" })),
  };
}

/** The distributors an end customer may be moved to, by name: every one but its own. */
async function resellerChoices(exceptId: string) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(
      and(
        eq(organizations.customerType, "distributor"),
        isNull(organizations.managedBy),
        ne(organizations.id, exceptId),
      ),
    )
    .orderBy(asc(organizations.name), asc(organizations.id))
    .limit(RESELLER_CHOICES);
}

/**
 * What an organization's administration page adds for distributors and end customers: a distributor's end
 * customers (the page of `?page=`), or an end customer's distributor and, for an administrator who may move it, the
 * distributors it may be moved to.
 */
export async function resellerSection(request: Request, organization: OrganizationRecord) {
  const user = await requireAdmin(request);
  if (organization.managedBy) {
    const reseller = await requireOrganization(organization.managedBy);
    return {
      kind: "end customer" as const,
      reseller: { id: reseller.id, name: reseller.name },
      choices: userMay(user, "customers.move") ? await resellerChoices(reseller.id) : null,
    };
  }
  if (organization.customerType !== "distributor") return null;
  const page = requestedPage(new URL(request.url).searchParams.get("page")) ?? 1;
  const { total, customers } = await endCustomersOf(organization.id, page);
  return { kind: "distributor" as const, page, pages: pageCount(total, END_CUSTOMERS_PER_PAGE), total, customers };
}

/** The end customer of a move (404 for an organization that is none), with its distributor. */
async function requireEndCustomer(customerId: string) {
  const customer = await requireOrganization(customerId);
  if (!customer.managedBy) throw json({ message: "This organization is not an end customer." }, { status: 404 });
  return { customer, reseller: await requireOrganization(customer.managedBy) };
}

/** /admin/customers/:organizationId/move: the move form alone, where a refused move shows what to fix. */
export async function moveCustomerPage(request: Request, customerId: string) {
  await requireAdmin(request, "customers.move");
  const { customer, reseller } = await requireEndCustomer(customerId);
  return {
    customer: { id: customer.id, name: customer.name },
    reseller: { id: reseller.id, name: reseller.name },
    choices: await resellerChoices(reseller.id),
  };
}

const moveSchema = z.object({
  reseller: z.string({ required_error: CHOOSE_RESELLER }).trim().min(1, CHOOSE_RESELLER).max(100, CHOOSE_RESELLER),
});

/** The move form's post refused: 422 with the field's message and what was chosen. */
const refusedMove = (message: string, reseller: string) =>
  json({ fieldErrors: { reseller: message }, values: { reseller } }, { status: 422 });

/**
 * An administrator moves an end customer to another distributor: the customer's managed_by, with an entry in the
 * activity logs of the customer, its old and its new distributor, in one transaction. The target must be another
 * distributor; an organization that is no end customer is a 404. The update names the old distributor, so of two
 * administrators moving the same customer at once the second is told it moved meanwhile.
 */
export async function postCustomerMove(request: Request, customerId: string) {
  const { formData } = await readAdminForm(request, "customers.move");
  const { customer, reseller: oldReseller } = await requireEndCustomer(customerId);
  const chosen = String(formData.get("reseller") ?? "");
  const parsed = moveSchema.safeParse({ reseller: chosen });
  if (!parsed.success) return refusedMove(parsed.error.issues[0]?.message ?? CHOOSE_RESELLER, chosen);
  const target = await findOrganization(parsed.data.reseller);
  if (!target || target.customerType !== "distributor" || target.managedBy)
    return refusedMove("Choose a GateKeeper distributor.", chosen);
  if (target.id === oldReseller.id) return refusedMove("The customer is this distributor's already.", chosen);
  const moved = await db.transaction(async (tx) => {
    const changed = await tx
      .update(organizations)
      .set({ managedBy: target.id })
      .where(and(eq(organizations.id, customer.id), eq(organizations.managedBy, oldReseller.id)))
      .returning({ id: organizations.id });
    if (changed.length === 0) return false;
    const entries = [
      {
        organizationId: customer.id,
        summary: `GateKeeper moved this organization from ${oldReseller.name} to ${target.name}.`,
      },
      {
        organizationId: oldReseller.id,
        summary: `GateKeeper moved the end customer ${customer.name} to ${target.name}.`,
      },
      {
        organizationId: target.id,
        summary: `GateKeeper moved the end customer ${customer.name} from ${oldReseller.name} to this organization.`,
      },
    ];
    // Signed GateKeeper, as an administrator's invitation is: the organizations' logs name no GateKeeper employee.
    for (const entry of entries) await recordActivity(tx, { ...entry, actor: GATEKEEPER, action: "customer.moved" });
    return true;
  });
  if (!moved) return refusedMove("The customer was moved meanwhile: look at its distributor again.", chosen);
  return redirectWithToast(request, `/admin/customers/${customer.id}`, {
    kind: "success",
    message: `${customer.name} is now an end customer of ${target.name}.`,
  });
}
