import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { signIn } from "./bench/portal.mjs";
import { walkWizard, WIZARDS, PLAN_STEP } from "./bench/wizard.mjs";
const port = 3999;
const child = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir=/tmp/prof", "scripts/server.mjs"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATABASE_URL: "file:/tmp/prof/db.sqlite", SEED_DEMO: "true" },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${port}`;
for (;;) { try { if ((await fetch(`${base}/healthz`)).ok) break; } catch {} await sleep(100); }
const jar = await signIn(base, "customer@example.com", "GateKeeper-demo-1");
await walkWizard(base, jar, WIZARDS[0].steps);
const path = process.argv[2] ?? PLAN_STEP;
for (const seconds of [2, 8]) {
  const r = await autocannon({ url: base + path, headers: { cookie: jar.header }, connections: 50, duration: seconds });
  console.log(path, `rps ${r.requests.average} p50 ${r.latency.p50} p99 ${r.latency.p99} non2xx ${r.non2xx}`);
}
child.kill("SIGTERM");
await new Promise((r) => child.once("exit", r));
