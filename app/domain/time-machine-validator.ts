import { lazyValidator } from "./lazy-validator";

// The time machine's form, checked in the browser on blur and by the page's action (decision 105).
export const timeMachineValidator = lazyValidator(() =>
  import("./time-machine-form").then((module) => module.timeMachineSchema),
);
