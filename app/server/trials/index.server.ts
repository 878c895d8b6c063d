// What the trials capability (the trial wizards, the trial job, who may start one) offers the rest of the portal;
// its other modules are its own.
export { cloudTrial, onPremiseTrial, TRIAL_KINDS, trialOutcome, trialProgressUrl } from "./trial-job.server";
export { trialRun } from "./trial-wizard.server";
