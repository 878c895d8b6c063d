import { env } from "~/server/platform/config/env.server";

/** The simulator's start-up time (HUB_SIM_STARTUP_SECONDS): a few seconds, as a real Hub takes a while, and none in tests. */
export const simulatorStartupMs = () => (env.HUB_SIM_STARTUP_SECONDS ?? (env.NODE_ENV === "test" ? 0 : 3)) * 1000;
