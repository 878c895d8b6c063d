/**
 * Invoices the embedded engine issued before it kept the parties of each document, for the test of the migration
 * that gives them their buyer from today's data (invoices_billed_to_of_today), on either engine: one made with a
 * billing address of its own, one without (it takes the customer's current one), and one of a customer without a
 * company (its contact's name stands for it).
 */
export const CUSTOMER_WITHOUT_COMPANY = {
  id: "cust_before_parties",
  firstName: "Mira",
  lastName: "Koch",
  email: "mira.koch@example.com",
  address: { firstName: "Mira", lastName: "Koch", line1: "Ringstraße 9", city: "Köln", zip: "50667", country: "DE" },
};

const ISSUED = new Date(1_700_000_000_000);

const INVOICE_ADDRESS = {
  firstName: "Dana",
  lastName: "Whitfield",
  line1: "1 Old Street",
  city: "San Francisco",
  zip: "94105",
  country: "US",
};

/** The rows as [statement with ? placeholders, parameters]: times as dates, JSON as text. */
export function invoicesBeforeParties(demoCustomerId: string): [string, unknown[]][] {
  const invoice = (id: string, customerId: string, billingAddress: object | null): [string, unknown[]] => [
    `insert into billing_invoices (id, customer_id, status, line_items, discounts, sub_total, total, credits_applied,
       amount_paid, amount_due, date, billing_address) values (?, ?, 'paid', '[]', '[]', 1000, 1000, 0, 1000, 0, ?, ?)`,
    [id, customerId, ISSUED, billingAddress ? JSON.stringify(billingAddress) : null],
  ];
  const { id, firstName, lastName, email, address } = CUSTOMER_WITHOUT_COMPANY;
  return [
    [
      `insert into billing_customers (id, first_name, last_name, email, phone, company, billing_address, created_at)
         values (?, ?, ?, ?, '', '', ?, ?)`,
      [id, firstName, lastName, email, JSON.stringify(address), ISSUED],
    ],
    invoice("before-parties-1", demoCustomerId, INVOICE_ADDRESS),
    invoice("before-parties-2", demoCustomerId, null),
    invoice("before-parties-3", id, null),
  ];
}

/** What the migration gives each of them: the buyer as today's data names it, no VAT number. */
export function expectedBuyers(demo: { company: string; contact: string; email: string; address: object }) {
  const person = `${CUSTOMER_WITHOUT_COMPANY.firstName} ${CUSTOMER_WITHOUT_COMPANY.lastName}`;
  const none = { vatNumber: null, vatNumberValid: false };
  return {
    "before-parties-1": {
      name: demo.company,
      contact: demo.contact,
      email: demo.email,
      address: INVOICE_ADDRESS,
      ...none,
    },
    "before-parties-2": {
      name: demo.company,
      contact: demo.contact,
      email: demo.email,
      address: demo.address,
      ...none,
    },
    "before-parties-3": {
      name: person,
      contact: person,
      email: CUSTOMER_WITHOUT_COMPANY.email,
      address: CUSTOMER_WITHOUT_COMPANY.address,
      ...none,
    },
  };
}
