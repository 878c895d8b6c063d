import { createLocalBilling } from "~/server/billing/local/engine.server";
import { db } from "~/server/db.server";
import { billingContract } from "./contract";

billingContract("embedded engine", async (now) => ({ billing: createLocalBilling({ store: db, now }) }));
