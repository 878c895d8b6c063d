import { withZod } from "@remix-validated-form/with-zod";
import { billingProfileSchema, cardFormSchema, shippingAddressSchema } from "~/domain/billing-forms";

// One validator per form, run by the drawer in the browser and by its action on the server.
export const cardFormValidator = withZod(cardFormSchema);
export const billingProfileValidator = withZod(billingProfileSchema);
export const shippingAddressValidator = withZod(shippingAddressSchema);
