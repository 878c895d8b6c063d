import { createViesRegister } from "~/server/tax-ids/vies/adapter.server";
import { startViesFake } from "../fakes/vies";
import { taxIdContract } from "./contract";

/** The VIES adapter over HTTP against the wire-level fake of VIES's REST service, backed by the simulator. */
taxIdContract("VIES adapter", async (simulator) => {
  const fake = await startViesFake({ register: simulator });
  return { register: createViesRegister({ baseUrl: fake.url, timeoutMs: 4_000 }), close: fake.close };
});
