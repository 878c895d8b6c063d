/** A reseller: buys the reseller- plans and add-ons, sees the reseller documents and has unlimited trials. */
export function isDistributor(customer: { customerType: string }): boolean {
  return customer.customerType === "distributor";
}
