import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { TaxIdStatus } from "~/domain/tax-ids";
import { countryOfVatNumber } from "~/domain/tax-ids";
import { db } from "~/server/platform/database/db.server";
import { taxIds } from "~/server/platform/database/tables.server";
import { enqueueJob, type JobKind } from "~/server/platform/jobs/runner.server";
import { realNow } from "~/server/platform/real-time.server";
import { getBilling, type BillingProvider, type VatNumberStatus } from "~/server/billing/index.server";
import { getTaxIds, TaxIdError, type TaxIdRegister } from "~/server/tax-ids/index.server";
import { findOrganization } from "~/server/accounts/index.server";

/**
 * The organization's VAT number as checked with the tax authority's register (the tax-id port): checked when the
 * billing profile is saved, kept with what the register said (db `tax_ids`), and given to the billing provider with
 * the customer's billing fields. When the register cannot answer, the number is saved all the same as 'not yet
 * checked', and a durable job asks again until it answers.
 */

export interface TaxIdRecord {
  vatNumber: string;
  status: TaxIdStatus;
  checkedAt: Date | null;
  registerName: string | null;
  registerAddress: string | null;
}

/** What the register said of a number, as the portal keeps it. */
export interface TaxIdOutcome extends TaxIdRecord {
  consultationNumber: string | null;
}

/** The status the billing provider keeps (Chargebee's vat_number_status): only the register's answers count. */
export const providerStatusOf = (status: TaxIdStatus): VatNumberStatus =>
  status === "valid" || status === "invalid" ? status : "unchecked";

/**
 * Asks the register about a well-formed number (app/domain/vat-format.ts). A register that cannot answer now
 * leaves it `pending`; a refused request (the register found it malformed after all) is `invalid`.
 */
export async function checkVatNumber(vatNumber: string, register: TaxIdRegister = getTaxIds()): Promise<TaxIdOutcome> {
  const country = countryOfVatNumber(vatNumber);
  const unanswered = {
    vatNumber,
    checkedAt: null,
    registerName: null,
    registerAddress: null,
    consultationNumber: null,
  };
  if (!country) return { ...unanswered, status: "invalid" };
  try {
    const check = await register.check({ country, vatNumber });
    if (check.result === "not_covered") return { ...unanswered, status: "not_covered" };
    if (check.result === "invalid") return { ...unanswered, status: "invalid", checkedAt: check.checkedAt };
    return {
      vatNumber,
      status: "valid",
      checkedAt: check.checkedAt,
      registerName: check.name,
      registerAddress: check.address,
      consultationNumber: check.consultationNumber,
    };
  } catch (error) {
    if (!(error instanceof TaxIdError)) throw error;
    return { ...unanswered, status: error.kind === "final" ? "invalid" : "pending" };
  }
}

/** The organization's VAT number and its check, or null when it has none. */
export async function taxIdOf(organizationId: string): Promise<TaxIdRecord | null> {
  const [row] = await db.select().from(taxIds).where(eq(taxIds.organizationId, organizationId));
  if (!row) return null;
  const { vatNumber, status, checkedAt, registerName, registerAddress } = row;
  return { vatNumber, status, checkedAt, registerName, registerAddress };
}

/** Keeps what the register said of the organization's number (or forgets the number: null). */
export async function saveTaxId(organizationId: string, outcome: TaxIdOutcome | null): Promise<void> {
  if (!outcome) {
    await db.delete(taxIds).where(eq(taxIds.organizationId, organizationId));
    return;
  }
  const row = { ...outcome, updatedAt: realNow() };
  await db
    .insert(taxIds)
    .values({ organizationId, ...row })
    .onConflictDoUpdate({ target: taxIds.organizationId, set: row });
}

/** Queues the check again for a number the register could not answer for: the job asks until it does. */
export async function recheckLater(organizationId: string, vatNumber: string): Promise<void> {
  await enqueueJob(taxIdRecheck, {
    ownerId: organizationId,
    idempotencyKey: `tax-id-recheck:${organizationId}:${vatNumber}:${realNow().getTime()}`,
    input: { vatNumber },
  });
}

const recheckInput = z.object({ vatNumber: z.string() });

/**
 * Asks the register again about a number saved as 'not yet checked', with backoff while it stays unavailable (the
 * runner's retries), and keeps the answer: on the portal's record, and on the billing provider's customer, whose
 * billing fields are sent whole again with the number's new status. A number changed meanwhile is left alone.
 */
export const taxIdRecheck: JobKind<z.infer<typeof recheckInput>, { check: { status: TaxIdStatus } }> = {
  name: "tax-id-recheck",
  input: recheckInput,
  // A national register behind VIES can be down for hours: asked again with waits doubling up to an hour, for
  // about a day, before the number is left 'not yet checked' until the profile is saved again.
  patience: { attempts: 30, maxBackoffMs: 60 * 60_000 },
  steps: [
    {
      name: "check",
      async run({ ownerId, input }) {
        const current = await taxIdOf(ownerId);
        if (current?.vatNumber !== input.vatNumber || current.status !== "pending") {
          return { status: current?.status ?? "pending" };
        }
        const outcome = await checkVatNumber(input.vatNumber);
        if (outcome.status === "pending") {
          throw new TaxIdError(`The register still cannot check ${input.vatNumber}.`, { kind: "retryable" });
        }
        const saved = await db
          .update(taxIds)
          .set({ ...outcome, updatedAt: realNow() })
          .where(
            and(
              eq(taxIds.organizationId, ownerId),
              eq(taxIds.vatNumber, input.vatNumber),
              eq(taxIds.status, "pending"),
            ),
          )
          .returning({ organizationId: taxIds.organizationId });
        if (saved.length > 0) await tellProvider(ownerId, input.vatNumber, outcome.status);
        return { status: outcome.status };
      },
    },
  ],
  failure: (step) => ({
    step,
    title: "VAT number not checked",
    message: "The tax register could not check the VAT number; it stays 'not yet checked'.",
  }),
};

/** The provider's customer learns the number's status, with every billing field sent again (none may be left out). */
async function tellProvider(
  organizationId: string,
  vatNumber: string,
  status: TaxIdStatus,
  billing: BillingProvider = getBilling(),
): Promise<void> {
  const customerId = (await findOrganization(organizationId))?.billingCustomerId;
  if (!customerId) return;
  const customer = await billing.retrieveCustomer(customerId);
  if (customer.vatNumber !== vatNumber || !customer.billingAddress) return;
  await billing.updateBillingInfo(customerId, {
    billingAddress: customer.billingAddress,
    vatNumber,
    vatNumberStatus: providerStatusOf(status),
  });
}
