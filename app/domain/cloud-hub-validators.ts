import { withZod } from "@remix-validated-form/with-zod";
import { adminStepSchema } from "./cloud-hub";

/** The Hub administrator's form validator, run by the browser and by the actions of the Hub wizard and the cloud trial. */
export const administratorValidator = withZod(adminStepSchema);
