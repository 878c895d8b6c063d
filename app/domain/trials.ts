/** Trial eligibility (spec 001 §4): a regular customer gets one trial, a distributor any number. */
export function canStartTrial(customerType: "customer" | "distributor", trialsSoFar: number): boolean {
  return customerType === "distributor" || trialsSoFar === 0;
}
