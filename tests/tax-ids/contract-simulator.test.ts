import { taxIdContract } from "./contract";

taxIdContract("simulator", async (simulator) => ({ register: simulator }));
