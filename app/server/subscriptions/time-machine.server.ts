import { json } from "@remix-run/node";
import { validationError } from "remix-validated-form";
import { formatDate } from "~/domain/format";
import { timeMachineValidator } from "~/domain/time-machine-validator";
import { requireAdmin, readAdminForm, redirectWithToast } from "~/server/accounts/index.server";
import { getBillingClock, type BillingClock, type ProviderEvent } from "~/server/billing/index.server";
import { env } from "~/server/platform/config/env.server";
import { eventsApplied, storeProviderEvents } from "./event-feed.server";
import { sweepRenewalReminders } from "./renewal-reminders.server";

/**
 * /admin/time-machine (decision 187): with the embedded billing engine in demo mode, a GateKeeper administrator
 * moves the engine's clock forward, as Chargebee's test sites' time machine does; everything that falls due on the
 * way (renewals charged to the card on file, declined ones and dunning's retries, scheduled cancellations) happens
 * as events, which the portal applies before the page answers. With Chargebee, or outside demo mode, there is no
 * such page (404): nobody moves a real business's clock.
 */
const availableClock = () => (env.SEED_DEMO ? getBillingClock() : null);

function timeMachine(): BillingClock {
  const clock = availableClock();
  if (!clock) throw json({ message: "There is no such page." }, { status: 404 });
  return clock;
}

/** Whether this portal has a time machine (the admin portal links to it then). */
export const hasTimeMachine = () => availableClock() !== null;

export const TIME_MACHINE_PATH = "/admin/time-machine";

/** The page: the engine's date now. */
export async function timeMachinePage(request: Request) {
  const clock = timeMachine();
  await requireAdmin(request);
  return { now: (await clock.now()).toISOString() };
}

const countOf = (events: ProviderEvent[], type: ProviderEvent["type"]) =>
  events.filter((event) => event.type === type).length;

/** The form posted: the clock moved, what fell due processed and applied, and the page again with what happened. */
export async function moveTimeMachine(request: Request) {
  const clock = timeMachine();
  const { formData } = await readAdminForm(request);
  const result = await timeMachineValidator.validate(formData);
  if (result.error) return validationError(result.error, result.submittedData);
  const moved = await clock.advance(result.data.days);
  // The listener stores them too; stored here as well, this request does not depend on it (a repeat is one row).
  await storeProviderEvents(moved.events, "engine");
  const applied = await eventsApplied(moved.events.map((event) => event.id));
  // The reminders due at the new date go now, as the passing of real time would have sent them on the way; one
  // whose renewal the jump passed is not sent (that renewal has happened), nor one a later reminder overtook.
  await sweepRenewalReminders(moved.to);
  const { events } = moved;
  const message =
    `The engine's clock moved ${result.data.days} days, to ${formatDate(moved.to)}: ${events.length} events, ` +
    `${countOf(events, "subscription_renewed")} renewals, ${countOf(events, "payment_failed")} failed payments, ` +
    `${countOf(events, "subscription_cancelled")} cancellations.` +
    (applied ? "" : " Some are still being applied.");
  return redirectWithToast(request, TIME_MACHINE_PATH, { kind: "success", message });
}
