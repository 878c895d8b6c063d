import type { OrganizationKind } from "~db/schema";
import { kindHas } from "./access-policy";

/** Trial eligibility: a regular customer gets one trial, a distributor any number. */
export function canStartTrial(customer: { customerType: OrganizationKind }, trialsSoFar: number): boolean {
  return kindHas(customer.customerType, "trials.unlimited") || trialsSoFar === 0;
}

export const USED_UP_TRIAL = "You have used up your trial.";
