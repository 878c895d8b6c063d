import { lazyValidator } from "./lazy-validator";

// One validator per form, run by the drawer in the browser and by its action on the server; the schemas (with
// the phone and country rules) load on first use (decision 105).
export const cardFormValidator = lazyValidator(() => import("./billing-forms").then((module) => module.cardFormSchema));
export const billingProfileValidator = lazyValidator(() =>
  import("./billing-forms").then((module) => module.billingProfileSchema),
);
export const invoiceCorrectionValidator = lazyValidator(() =>
  import("./billing-forms").then((module) => module.invoiceCorrectionSchema),
);
export const shippingAddressValidator = lazyValidator(() =>
  import("./billing-forms").then((module) => module.shippingAddressSchema),
);
