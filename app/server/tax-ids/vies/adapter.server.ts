import { z } from "zod";
import { isEuCountry, vatPrefixOf } from "~/domain/tax-ids";
import { registerUnavailable, TaxIdError } from "../errors.server";
import type { TaxIdCheck, TaxIdNumber, TaxIdRegister } from "../port.server";

/**
 * The tax-id port on the EU's VIES REST service (its published contract, swagger_publicVAT.yaml): `POST
 * {baseUrl}/check-vat-number` with `{ countryCode, vatNumber }`, the member state's code (EL for Greece) and the
 * number without it. The answer says `valid`, with the trader's `name` and `address` when the member state
 * discloses them ("---" when it does not) and a `requestIdentifier` (the consultation number) when the request
 * named a requester. A failure is `{ actionSucceed: false, errorWrappers: [{ error, message? }] }`, under a 2xx, 4xx
 * or 5xx status alike: INVALID_INPUT (and INVALID_REQUESTER_INFO) refuse the request; every other error
 * (SERVICE_UNAVAILABLE, MS_UNAVAILABLE, TIMEOUT, the concurrency limits, VAT_BLOCKED, IP_BLOCKED) says nothing of
 * the number, so the register is unavailable. VIES covers the EU's member states only.
 */
export interface ViesOptions {
  /** The REST API's base, e.g. https://ec.europa.eu/taxation_customs/vies/rest-api. */
  baseUrl: string;
  timeoutMs?: number;
}

/** What VIES writes where a member state discloses nothing. */
const UNDISCLOSED = "---";

const answer = z.object({
  valid: z.boolean(),
  requestDate: z.string().optional(),
  name: z.string().nullish(),
  address: z.string().nullish(),
  requestIdentifier: z.string().nullish(),
});

const failure = z.object({
  errorWrappers: z.array(z.object({ error: z.string(), message: z.string().nullish() })).min(1),
});

/** Errors that are VIES refusing the request itself, not a register that could not answer. */
const REFUSALS = new Set(["INVALID_INPUT", "INVALID_REQUESTER_INFO"]);

const disclosed = (value: string | null | undefined) =>
  value && value.trim() !== "" && value.trim() !== UNDISCLOSED ? value.trim() : null;

class ViesRegister implements TaxIdRegister {
  readonly name = "vies";

  constructor(private readonly options: Required<ViesOptions>) {}

  async check({ country, vatNumber }: TaxIdNumber): Promise<TaxIdCheck> {
    if (!isEuCountry(country)) return { result: "not_covered" };
    const prefix = vatPrefixOf(country);
    const body = {
      countryCode: prefix,
      vatNumber: vatNumber.startsWith(prefix) ? vatNumber.slice(prefix.length) : vatNumber,
    };
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${this.options.baseUrl.replace(/\/$/, "")}/check-vat-number`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      // A check changes nothing, so whether it reached VIES or not, asking again later is safe.
      throw registerUnavailable(`VIES could not be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
    const json = parseJson(text);
    const failed = failure.safeParse(json);
    if (failed.success) {
      const [first] = failed.data.errorWrappers;
      if (REFUSALS.has(first.error)) {
        throw new TaxIdError(`VIES refused the request: ${first.error}`, { kind: "final", code: "invalid_input" });
      }
      throw registerUnavailable(`VIES could not check the number: ${first.error}`, first.error);
    }
    const parsed = answer.safeParse(json);
    if (status < 200 || status >= 300 || !parsed.success) {
      throw registerUnavailable(`VIES answered ${status} without a result.`);
    }
    const checkedAt = checkedAtOf(parsed.data.requestDate);
    if (!parsed.data.valid) return { result: "invalid", checkedAt };
    return {
      result: "valid",
      checkedAt,
      name: disclosed(parsed.data.name),
      address: disclosed(parsed.data.address),
      consultationNumber: disclosed(parsed.data.requestIdentifier),
    };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** When VIES answered (its requestDate, to the second); now when it gave none that reads as a date. */
function checkedAtOf(requestDate: string | undefined): Date {
  const at = requestDate ? new Date(requestDate) : new Date(Number.NaN);
  const when = Number.isNaN(at.getTime()) ? new Date() : at;
  return new Date(Math.floor(when.getTime() / 1000) * 1000);
}

export function createViesRegister({ baseUrl, timeoutMs = 10_000 }: ViesOptions): TaxIdRegister {
  return new ViesRegister({ baseUrl, timeoutMs });
}
