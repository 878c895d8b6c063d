import { isDistributor } from "./customers";

/** Trial eligibility: a regular customer gets one trial, a distributor any number. */
export function canStartTrial(customer: { customerType: string }, trialsSoFar: number): boolean {
  return isDistributor(customer) || trialsSoFar === 0;
}

export const USED_UP_TRIAL = "You have used up your trial.";
