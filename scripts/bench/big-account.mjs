import Database from "better-sqlite3";

export const BIG_ACCOUNT = {
  email: "big@example.com",
  licenses: 10_000,
  hubs: 1_000,
  invoices: 10_000,
  members: 500,
  invitations: 50,
  activity: 20_000,
  quotes: 5_000,
};

const DAY_MS = 24 * 60 * 60 * 1000;
const ROLES = ["billing_admin", "technical_contact", "viewer"];

/**
 * Adds an organization that has held the portal for years to the bench's database: BIG_ACCOUNT.licenses
 * licenses (a third of them expired), BIG_ACCOUNT.hubs Hubs, BIG_ACCOUNT.invoices invoices, BIG_ACCOUNT.members
 * members, BIG_ACCOUNT.invitations pending invitations, BIG_ACCOUNT.activity entries in its activity log and
 * BIG_ACCOUNT.quotes quotes. Its
 * invoices are at the embedded engine and in the portal's copies that /account/invoices lists. Its Owner signs in
 * as BIG_ACCOUNT.email with the demo password. Rows are copies of the demo customer's, so they stay valid whatever
 * columns the schema has gained; only keys, owners, names and dates change. One transaction, written straight to
 * the SQLite file while the portal runs (WAL lets it read meanwhile).
 */
export function addBigAccount(databaseFile, demoEmail) {
  writeInOneTransaction(databaseFile, (sqlite) => fill(sqlite, demoEmail));
  return BIG_ACCOUNT;
}

/** Runs `write` on the bench's SQLite file in one transaction, beside the running portal (WAL lets it read). */
export function writeInOneTransaction(databaseFile, write) {
  const sqlite = new Database(databaseFile);
  sqlite.pragma("busy_timeout = 5000");
  try {
    sqlite.transaction(() => write(sqlite))();
  } finally {
    sqlite.close();
  }
}

function fill(sqlite, demoEmail) {
  const demo = sqlite.prepare("select * from users where email = ?").get(demoEmail);
  if (!demo) throw new Error(`the demo account ${demoEmail} is missing`);
  const demoMembership = sqlite.prepare("select * from memberships where user_id = ? limit 1").get(demo.id);
  const demoOrganization = sqlite
    .prepare("select * from organizations where id = ?")
    .get(demoMembership.organization_id);
  const ownerId = "bench-big-account";
  const organizationId = "bench-big-organization";
  const billingCustomerId = "cust_bench_big_account";
  const now = Date.now();
  insertCopy(sqlite, "users", demo, {
    id: ownerId,
    email: BIG_ACCOUNT.email,
    first_name: "Bea",
    last_name: "Big",
  });
  insertCopy(sqlite, "organizations", demoOrganization, {
    id: organizationId,
    name: "Big Holdings",
    billing_customer_id: billingCustomerId,
  });
  const insertMembership = copier(sqlite, "memberships", demoMembership);
  insertMembership({ organization_id: organizationId, user_id: ownerId, role: "owner" });
  const insertUser = copier(sqlite, "users", demo);
  for (let n = 0; n < BIG_ACCOUNT.members - 1; n += 1) {
    insertUser({
      id: `bench-member-${n}`,
      email: `member-${n}@big.example.com`,
      first_name: "Member",
      last_name: `${n}`,
    });
    insertMembership({ organization_id: organizationId, user_id: `bench-member-${n}`, role: ROLES[n % ROLES.length] });
  }
  const insertInvitation = sqlite.prepare(
    "insert into invitations (id, organization_id, email, role, invited_by, expires_at) values (?, ?, ?, 'viewer', 'Bea Big', ?)",
  );
  for (let n = 0; n < BIG_ACCOUNT.invitations; n += 1)
    insertInvitation.run(`bench-invitation-${n}`, organizationId, `invited-${n}@big.example.com`, now + 7 * DAY_MS);
  const insertActivity = sqlite.prepare(
    "insert into activity (organization_id, actor_user_id, actor_name, action, summary, created_at) values (?, ?, 'Bea Big', 'order.placed', ?, ?)",
  );
  for (let n = 0; n < BIG_ACCOUNT.activity; n += 1)
    insertActivity.run(organizationId, ownerId, `Placed order ${n}.`, now - (BIG_ACCOUNT.activity - n) * 60_000);
  addQuotes(sqlite, { organizationId, ownerId, now });

  const license = sqlite
    .prepare("select * from licenses where owner_id = ? limit 1")
    .get(demoMembership.organization_id);
  const insertLicense = copier(sqlite, "licenses", license);
  for (let n = 0; n < BIG_ACCOUNT.licenses; n += 1) {
    const validFrom = now - (n + 1) * DAY_MS;
    insertLicense({
      id: `bench-license-${n}`,
      owner_id: organizationId,
      external_license_id: `GK-BENCH-${String(n).padStart(5, "0")}`,
      name: `Branch office ${n}`,
      subscription_id: null,
      valid_from: validFrom,
      // Two in three still valid, one in three expired.
      valid_to: n % 3 === 2 ? now - DAY_MS : now + 365 * DAY_MS,
    });
  }

  const hub = sqlite
    .prepare("select * from hub_installations where owner_id = ? limit 1")
    .get(demoMembership.organization_id);
  const insertHub = copier(sqlite, "hub_installations", hub);
  for (let n = 0; n < BIG_ACCOUNT.hubs; n += 1) {
    // One in three on-premise, so the Type filter has both kinds to pick from.
    const local = n % 3 === 2;
    insertHub({
      id: `bench-hub-${n}`,
      owner_id: organizationId,
      type: local ? "local" : "cloud",
      url: local ? null : `https://hub-${n}.example.com`,
      ip: local ? `10.1.${Math.floor(n / 250)}.${n % 250}` : null,
      last_seen: now - n * 60_000,
    });
  }

  sqlite
    .prepare("insert into billing_customers (id, first_name, last_name, email, created_at) values (?, ?, ?, ?, ?)")
    .run(billingCustomerId, "Bea", "Big", BIG_ACCOUNT.email, now);
  const insertInvoice = sqlite.prepare(
    `insert into billing_invoices (id, customer_id, status, line_items, discounts, sub_total, total, credits_applied,
       amount_paid, amount_due, date) values (?, ?, 'paid', '[]', '[]', 10000, 10000, 0, 10000, 0, ?)`,
  );
  // The portal's copies of them, which /account/invoices lists, as the provider's events would have made them.
  const invoice = sqlite
    .prepare("select * from invoices where owner_id = ? limit 1")
    .get(demoMembership.organization_id);
  const insertInvoiceCopy = copier(sqlite, "invoices", invoice);
  for (let n = 0; n < BIG_ACCOUNT.invoices; n += 1) {
    const date = now - n * DAY_MS;
    insertInvoice.run(`bench-invoice-${n}`, billingCustomerId, date);
    insertInvoiceCopy({
      id: `bench-invoice-${n}`,
      owner_id: organizationId,
      customer_id: billingCustomerId,
      subscription_id: null,
      number: `B${n}`,
      date,
      paid_at: date,
      resource_version: date,
    });
  }
}

/** A prepared insert of `template`'s row with some columns replaced. */
/** An insert of copies of `template` into `table`, each with some columns overridden. */
export function copier(sqlite, table, template) {
  if (!template) throw new Error(`the demo account has no row in ${table} to copy`);
  const columns = Object.keys(template);
  const insert = sqlite.prepare(
    `insert into ${table} (${columns.map((column) => `"${column}"`).join(", ")}) values (${columns.map((column) => `@${column}`).join(", ")})`,
  );
  return (overrides) => insert.run({ ...template, ...overrides });
}

const QUOTE_STATUSES = ["open", "accepted", "ordered", "withdrawn"];

/**
 * BIG_ACCOUNT.quotes quotes of the organization's own, one made an hour, of every status, some open ones past their
 * validity (expired): what /quotes pages and counts. Each priced as the demo's plan step would price 10 users.
 */
function addQuotes(sqlite, { organizationId, ownerId, now }) {
  const estimate = JSON.stringify({
    lineItems: [{ description: "Core Plan", quantity: 10, unitAmount: 400, amount: 4_000 }],
    discounts: [],
    subTotal: 4_000,
    total: 4_000,
    creditsApplied: 0,
    amountDue: 4_000,
    nextBilling: { amount: 4_000, at: new Date(now + 30 * DAY_MS).toISOString() },
  });
  const order = JSON.stringify({ cycle: "monthly", tier: "core", organization: "Big Holdings", users: 10 });
  const insertQuote = sqlite.prepare(
    "insert into quotes (id, number, owner_id, organization_name, made_by_user_id, made_by_name, status, \"order\", estimate, price_list_version, valid_until, quoted_at) values (?, ?, ?, 'Big Holdings', ?, 'Bea Big', ?, ?, ?, 'bench', ?, ?)",
  );
  for (let n = 0; n < BIG_ACCOUNT.quotes; n += 1) {
    const quotedAt = now - (BIG_ACCOUNT.quotes - n) * 60 * 60_000;
    insertQuote.run(
      `bench-quote-${n}`,
      `Q-BENCH-${String(n).padStart(5, "0")}`,
      organizationId,
      ownerId,
      QUOTE_STATUSES[n % QUOTE_STATUSES.length],
      order,
      estimate,
      quotedAt + 30 * DAY_MS,
      quotedAt,
    );
  }
}

function insertCopy(sqlite, table, template, overrides) {
  copier(sqlite, table, template)(overrides);
}
