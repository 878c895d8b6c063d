import { lazyValidator } from "./lazy-validator";

/** The Hub administrator's form validator, run by the browser and by the actions of the Hub wizard and the cloud trial. */
export const administratorValidator = lazyValidator(() =>
  import("./cloud-hub").then((module) => module.adminStepSchema),
);
