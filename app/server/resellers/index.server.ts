// What the resellers capability (a distributor's end customers, their renewals view and the renewal reminders)
// offers the rest of the portal; its other modules are its own.
export { addCustomer, customerOf, requireCustomer, type EndCustomer } from "./end-customers.server";
