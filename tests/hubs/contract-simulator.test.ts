import { hubContract } from "./contract";

hubContract("simulator", async (simulator) => ({ hubs: simulator }));
