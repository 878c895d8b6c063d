import { z } from "zod";
import { DAYS_MESSAGE, MAX_TIME_MACHINE_DAYS } from "./time-machine";

/** The time machine's form: how many whole days forward. */
export const timeMachineSchema = z.object({
  days: z.coerce
    .number({ invalid_type_error: DAYS_MESSAGE })
    .int(DAYS_MESSAGE)
    .min(1, DAYS_MESSAGE)
    .max(MAX_TIME_MACHINE_DAYS, DAYS_MESSAGE),
});
