// The round-robin balancer in front of the bench's PostgreSQL instances (scripts/round-robin-proxy.mjs) in a process
// of its own, as nginx would be and as the bare server is, so that it does not share an event loop with autocannon.
// Takes the instances' ports as arguments, reports its URL over IPC, and exits when the channel closes.
import { startRoundRobinProxy } from "../round-robin-proxy.mjs";

const proxy = await startRoundRobinProxy(process.argv.slice(2).map(Number));
process.send({ url: proxy.url });
process.on("disconnect", () => void proxy.close().then(() => process.exit(0)));
