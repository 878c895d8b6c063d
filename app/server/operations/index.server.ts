export { readiness, type Readiness } from "./readiness.server";
export { serverOperations, type RequestOutcome, type ServerOperations } from "./server-hooks.server";
export { recentRequestsOf } from "./recent-requests.server";
