import { z } from "zod";
import { EU_COUNTRIES } from "~/domain/tax-ids";
import { TaxIdError } from "~/server/tax-ids/errors.server";
import type { TaxIdRegister } from "~/server/tax-ids/port.server";
import { startFake, type FakeResponse } from "./http";

/**
 * A wire-level fake of the EU's VIES REST service (its published contract, swagger_publicVAT.yaml) for the call the
 * portal makes, `POST /check-vat-number`, as strict as VIES: a country code VIES does not know (GR for Greece,
 * which VIES writes EL) or a number sent with its prefix is INVALID_INPUT, answered 400 with VIES's error shape.
 * The answers come from the embedded register, so the contract suite holds the HTTP adapter to the simulator's
 * behaviour: its valid numbers as VIES writes them ("---" for what a member state does not disclose), an
 * unavailable member state as VIES's MS_UNAVAILABLE error inside a 200 (which VIES sends under several statuses).
 * `answerNextWith` replaces the next answer (an outage's HTML page, a 500).
 */
const VIES_COUNTRIES = new Set<string>([...EU_COUNTRIES.filter((code) => code !== "GR"), "EL", "XI"]);

const request = z
  .object({
    countryCode: z.string(),
    vatNumber: z.string(),
    requesterMemberStateCode: z.string().optional(),
    requesterNumber: z.string().optional(),
  })
  .strict();

const viesError = (status: number, error: string): FakeResponse => ({
  status,
  json: { actionSucceed: false, errorWrappers: [{ error }] },
});

export async function startViesFake({ register }: { register: TaxIdRegister }) {
  const requests: Record<string, unknown>[] = [];
  let canned: FakeResponse | undefined;
  const server = await startFake(async ({ method, path, params }) => {
    if (method !== "POST" || path !== "/check-vat-number") return { status: 404, html: "<html>Not Found</html>" };
    requests.push(params);
    if (canned) {
      const answer = canned;
      canned = undefined;
      return answer;
    }
    const parsed = request.safeParse(params);
    if (!parsed.success) return viesError(400, "INVALID_INPUT");
    const { countryCode, vatNumber } = parsed.data;
    if (
      !VIES_COUNTRIES.has(countryCode) ||
      !/^[0-9A-Z+*]{2,12}$/.test(vatNumber) ||
      vatNumber.startsWith(countryCode)
    ) {
      return viesError(400, "INVALID_INPUT");
    }
    const country = countryCode === "EL" ? "GR" : countryCode;
    try {
      const check = await register.check({ country, vatNumber: `${countryCode}${vatNumber}` });
      if (check.result === "not_covered") return viesError(400, "INVALID_INPUT");
      const found = check.result === "valid";
      return {
        status: 200,
        json: {
          countryCode,
          vatNumber,
          requestDate: check.checkedAt.toISOString(),
          valid: found,
          requestIdentifier: "",
          name: found ? (check.name ?? "---") : "---",
          address: found ? (check.address ?? "---") : "---",
          traderName: "---",
          traderNameMatch: "NOT_PROCESSED",
        },
      };
    } catch (error) {
      if (!(error instanceof TaxIdError)) throw error;
      return error.code === "MS_UNAVAILABLE" ? viesError(200, "MS_UNAVAILABLE") : viesError(500, "SERVICE_UNAVAILABLE");
    }
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    close: server.close,
    requests,
    /** Answers the next request with this response instead of the register's. */
    answerNextWith: (response: FakeResponse) => {
      canned = response;
    },
  };
}
