// What the resellers capability (a distributor's end customers) offers the rest of the portal: what an order for
// an end customer needs. Its pages' modules are its own.
export { addCustomer, customerChoices, customerOf, requireCustomer } from "./end-customers.server";
