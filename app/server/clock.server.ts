import { getBillingClock } from "./billing/index.server";

/**
 * The portal's "now" for what follows the billing provider's dates (decision 187): whether a license is active,
 * its days left, which licenses a Hub or an update may use, when a trial starts. With the embedded billing engine
 * it is the engine's clock, which the time machine moves in demo mode, so that a license renewed, stopped or
 * ended by the machine shows so at once; with Chargebee it is real time. Sessions, tokens, throttles and jobs keep
 * real time.
 */
export async function portalNow(): Promise<Date> {
  const clock = getBillingClock();
  return clock ? clock.now() : new Date();
}
