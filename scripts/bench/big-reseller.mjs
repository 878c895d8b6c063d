import { copier, writeInOneTransaction } from "./big-account.mjs";

export const BIG_RESELLER = {
  email: "big-reseller@example.com",
  customers: 2_000,
  licenses: 10_000,
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Adds a distributor that has sold for years to the bench's database: BIG_RESELLER.customers end customers and
 * BIG_RESELLER.licenses licenses bought for them (five each), each with a running subscription whose term ends on
 * a day of the coming year, so every renewal window holds a share of them. Its Owner signs in as
 * BIG_RESELLER.email with the demo password. Rows are copies of the demo distributor's, so they stay valid
 * whatever columns the schema has gained; one transaction, written while the portal runs.
 */
export function addBigReseller(databaseFile, demoEmail) {
  writeInOneTransaction(databaseFile, (sqlite) => fill(sqlite, demoEmail));
  return BIG_RESELLER;
}

function fill(sqlite, demoEmail) {
  const demo = sqlite.prepare("select * from users where email = ?").get(demoEmail);
  if (!demo) throw new Error(`the demo account ${demoEmail} is missing`);
  const membership = sqlite.prepare("select * from memberships where user_id = ? limit 1").get(demo.id);
  const reseller = sqlite.prepare("select * from organizations where id = ?").get(membership.organization_id);
  const demoCustomer = sqlite.prepare("select * from organizations where managed_by = ? limit 1").get(reseller.id);
  const demoLicense = sqlite
    .prepare("select * from licenses where owner_id = ? and subscription_id is not null limit 1")
    .get(reseller.id);
  const demoSubscription = sqlite.prepare("select * from subscriptions where id = ?").get(demoLicense.subscription_id);
  const ownerId = "bench-big-reseller-owner";
  const organizationId = "bench-big-reseller";
  const billingCustomerId = "cust_bench_big_reseller";
  const now = Date.now();

  copier(sqlite, "users", demo)({ id: ownerId, email: BIG_RESELLER.email, first_name: "Rhea", last_name: "Reseller" });
  copier(
    sqlite,
    "organizations",
    reseller,
  )({
    id: organizationId,
    name: "Big Resellers",
    billing_customer_id: billingCustomerId,
  });
  sqlite
    .prepare("insert into billing_customers (id, first_name, last_name, email, created_at) values (?, ?, ?, ?, ?)")
    .run(billingCustomerId, "Rhea", "Reseller", BIG_RESELLER.email, now);
  copier(sqlite, "memberships", membership)({ organization_id: organizationId, user_id: ownerId, role: "owner" });

  const insertCustomer = copier(sqlite, "organizations", demoCustomer);
  const insertSubscription = copier(sqlite, "subscriptions", demoSubscription);
  const insertLicense = copier(sqlite, "licenses", demoLicense);
  const perCustomer = BIG_RESELLER.licenses / BIG_RESELLER.customers;
  for (let c = 0; c < BIG_RESELLER.customers; c += 1) {
    const customerId = `bench-end-customer-${c}`;
    insertCustomer({
      id: customerId,
      name: `Customer ${String(c).padStart(4, "0")}`,
      managed_by: organizationId,
      contact_email: `it-${c}@customer-${c}.example.com`,
    });
    for (let l = 0; l < perCustomer; l += 1) {
      const n = c * perCustomer + l;
      const subscriptionId = `sub_bench_reseller_${n}`;
      const termEnd = now + (1 + (n % 365)) * DAY_MS;
      insertSubscription({
        id: subscriptionId,
        owner_id: organizationId,
        customer_id: billingCustomerId,
        current_term_start: termEnd - 365 * DAY_MS,
        current_term_end: termEnd,
        next_billing_at: termEnd,
      });
      insertLicense({
        id: `bench-reseller-license-${n}`,
        owner_id: organizationId,
        licensee_id: customerId,
        external_license_id: `GK-BENCH-R${String(n).padStart(5, "0")}`,
        license_code: `${demoLicense.license_code}-bench-${n}`,
        subscription_id: subscriptionId,
        valid_to: termEnd,
      });
    }
  }
}
