import { json, redirect } from "@remix-run/node";
import { countryName } from "~/domain/countries";
import { customerFormSchema } from "~/domain/customer-forms";
import { CUSTOMERS_PER_PAGE, customersHref, customerUrls, type CustomerRecord } from "~/domain/customers";
import { MAX_TEXT_LENGTH } from "~/domain/fields";
import { subscriptionStepUrl } from "~/domain/subscription-steps";
import { trialChooserUrl } from "~/domain/trial-steps";
import { pageCount, requestedPage } from "~/domain/pagination";
import { mayDo, readMemberForm, redirectWithToast, requireMember } from "~/server/accounts/index.server";
import { portalNow } from "~/server/billing/index.server";
import {
  createCustomer,
  customerDetail,
  customerPage,
  requireCustomer,
  updateCustomer,
  type EndCustomer,
} from "./end-customers.server";
import { customerPeople } from "./customer-people.server";

/**
 * The pages of a distributor's end customers (/customers, /customers/new, /customers/:customerId and its edit
 * form): each loader and action checks its own right, and a customer of anyone else is a 404.
 */

/** The list: one page of the distributor's end customers, searched and paged in SQL. */
export async function customersListPage(request: Request) {
  const member = await requireMember(request, "customers.read");
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_TEXT_LENGTH);
  const page = requestedPage(url.searchParams.get("page"));
  if (page === null) throw redirect(customersHref(search, 1));
  const { total, customers } = await customerPage(member.organization.id, {
    search,
    page,
    pageSize: CUSTOMERS_PER_PAGE,
    now: await portalNow(),
  });
  const pages = pageCount(total, CUSTOMERS_PER_PAGE);
  if (page > pages) throw redirect(customersHref(search, pages));
  // What renewals cost is billing: for the members who see the distributor's invoices, not its Technical contacts.
  const showAmounts = mayDo(member, "billing.manage");
  return {
    search,
    page,
    pages,
    total,
    mayAdd: mayDo(member, "customers.manage"),
    mayViewRenewals: mayDo(member, "customers.renewals"),
    customers: customers.map((customer) => ({
      id: customer.id,
      name: customer.name,
      country: customer.country ? countryName(customer.country) : "",
      contactName: customer.contactName,
      licenses: customer.licenses,
      nextRenewal: customer.nextRenewal && {
        on: customer.nextRenewal.on.toISOString(),
        amount: showAmounts ? customer.nextRenewal.amount : null,
      },
    })),
  };
}

/** The record as its form shows it: every field as text. */
export function recordFormValues(customer: EndCustomer | null): Record<string, string> {
  return {
    name: customer?.name ?? "",
    country: customer?.country ?? "",
    line1: customer?.address?.line1 ?? "",
    line2: customer?.address?.line2 ?? "",
    city: customer?.address?.city ?? "",
    state: customer?.address?.state ?? "",
    zip: customer?.address?.zip ?? "",
    contactName: customer?.contactName ?? "",
    contactEmail: customer?.contactEmail ?? "",
  };
}

/** A record form's post checked: the record, or the 422 with every field's message and what was typed. */
function readRecord(formData: FormData): { record: CustomerRecord } | { refused: Response } {
  const values = Object.fromEntries(
    Object.keys(recordFormValues(null)).map((field) => [field, String(formData.get(field) ?? "")]),
  );
  const parsed = customerFormSchema.safeParse(values);
  if (parsed.success) return { record: parsed.data };
  const fieldErrors = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
  return { refused: json({ fieldErrors, values }, { status: 422 }) };
}

/** /customers/new: the empty form, for the members who may add customers. */
export async function newCustomerPage(request: Request) {
  await requireMember(request, "customers.manage");
  return { values: recordFormValues(null) };
}

/** The new customer's form posted: added, and its page; or the form again with what to fix. */
export async function postNewCustomer(request: Request) {
  const { member, formData } = await readMemberForm(request, "customers.manage");
  const read = readRecord(formData);
  if ("refused" in read) return read.refused;
  const { id } = await createCustomer(member, read.record);
  return redirectWithToast(request, customerUrls.page(id), {
    kind: "success",
    message: `${read.record.name} was added to your customers.`,
  });
}

/** /customers/:customerId/edit: the record's form, filled in. */
export async function editCustomerPage(request: Request, customerId: string) {
  const member = await requireMember(request, "customers.manage");
  const customer = await requireCustomer(member.organization.id, customerId);
  return { id: customer.id, name: customer.name, values: recordFormValues(customer) };
}

/** The edit form posted: the record changed, and back to the customer's page; or the form with what to fix. */
export async function postCustomerEdit(request: Request, customerId: string) {
  const { member, formData } = await readMemberForm(request, "customers.manage");
  const read = readRecord(formData);
  if ("refused" in read) return read.refused;
  await updateCustomer(member, customerId, read.record);
  return redirectWithToast(request, customerUrls.page(customerId), {
    kind: "success",
    message: `The record of ${read.record.name} was saved.`,
  });
}

type ListedLicense = Awaited<ReturnType<typeof customerDetail>>["heldElsewhere"][number];

/** A license as a customer's page lists it: its id, plan, users and term. */
const licenseTerms = (license: ListedLicense) => ({
  id: license.id,
  externalLicenseId: license.externalLicenseId,
  type: license.type,
  planType: license.planType,
  nodes: license.nodes,
  status: license.status,
  validFrom: license.validFrom.toISOString(),
  validTo: license.validTo.toISOString(),
  daysLeft: license.daysLeft,
});

/**
 * /customers/:customerId: the record, the licenses bought for the customer, its Hubs, its orders and invoices and
 * upcoming renewals (invoices and amounts for the members who see billing), and its people.
 */
export async function customerPageData(request: Request, customerId: string) {
  const member = await requireMember(request, "customers.read");
  const customer = await requireCustomer(member.organization.id, customerId);
  const now = await portalNow();
  const [detail, people] = await Promise.all([
    customerDetail(member.organization.id, customer, now),
    customerPeople(customer.id),
  ]);
  const showAmounts = mayDo(member, "billing.manage");
  return {
    customer: {
      id: customer.id,
      name: customer.name,
      country: customer.country ? countryName(customer.country) : "",
      address: customer.address,
      contactName: customer.contactName,
      contactEmail: customer.contactEmail,
    },
    distributorName: member.organization.name,
    mayEdit: mayDo(member, "customers.manage"),
    people,
    mayManagePeople: mayDo(member, "customers.people"),
    // The new-license wizard of this customer's own draft: the distributor pays, the license is the customer's.
    buyTo: mayDo(member, "customers.purchase") ? subscriptionStepUrl("plan", customer.id) : null,
    // A trial for the customer: the distributor's trial rules, the license (and its cloud Hub) the customer's.
    trialTo: mayDo(member, "customers.trials") ? trialChooserUrl(customer.id) : null,
    licenses: detail.licenses.map((license) => ({
      ...licenseTerms(license),
      name: license.name,
      downloadUrl: mayDo(member, "licenses.download") ? `/licenses/${license.id}/download` : null,
    })),
    // Bought by the distributor that managed the customer before a move, and that one's until they end.
    heldElsewhere: detail.heldElsewhere.map(licenseTerms),
    hubs: detail.hubs.map((hub) => ({ ...hub, lastSeen: hub.lastSeen?.toISOString() ?? null })),
    invoices: mayDo(member, "billing.manage")
      ? detail.invoices.map((invoice) => ({ ...invoice, date: invoice.date.toISOString() }))
      : null,
    renewals: detail.renewals.map((renewal) => ({
      ...renewal,
      on: renewal.on.toISOString(),
      amount: showAmounts ? renewal.amount : null,
    })),
  };
}
