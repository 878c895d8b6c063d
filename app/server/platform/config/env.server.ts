import { createPrivateKey } from "node:crypto";
import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";
import { parsePublicUrl } from "./public-url.server";
import { databaseChoice } from "./database-url.server";
import { VIES_BASE_URL } from "./vies-url.server";

/**
 * The portal's configuration, read once from the environment and validated at start-up.
 * A wrong value stops the process with one line naming the variable, so a misconfigured
 * deployment fails loudly instead of half-working.
 */
const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    errorMap: () => ({ message: "must be true or false" }),
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/**
 * A provider API's other address (a local fake's, in the end-to-end tests): an http(s) origin, as the host, port and
 * protocol the providers' SDKs take.
 */
const apiUrl = z
  .string()
  .url("must be an http(s) origin, e.g. http://127.0.0.1:12111")
  .transform((value, ctx) => {
    const url = new URL(value);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/" || url.search) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be an http(s) origin, e.g. http://127.0.0.1:12111" });
      return z.NEVER;
    }
    const protocol = url.protocol === "http:" ? "http" : "https";
    return { protocol, host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)) } as const;
  })
  .optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number({ invalid_type_error: "must be a port number" }).int().min(0).max(65535).default(3000),
    /** file:PATH is a SQLite file (the default), postgres://… a PostgreSQL database (see databaseChoice). */
    DATABASE_URL: z
      .string()
      .default("file:./data/portal.sqlite")
      .refine(
        (url) => databaseChoice(url) !== undefined,
        "must be file:PATH for SQLite (e.g. file:./data/portal.sqlite) or postgres://… for PostgreSQL",
      ),
    /**
     * Connections each process keeps to PostgreSQL. Processes × instances × this must stay under the server's
     * max_connections (100 by default).
     */
    DATABASE_POOL_MAX: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(1).max(100).default(5),
    /**
     * Pipelined connections each process keeps to PostgreSQL for the statements outside transactions (which
     * then share them instead of taking one of the pool's each); 0 sends every statement through the pool.
     * They count against max_connections too.
     */
    DATABASE_PIPELINES: z.coerce.number({ invalid_type_error: "must be a number" }).int().min(0).max(10).default(2),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -hex 32`)").optional(),
    /** Unset: on in development and tests, off under NODE_ENV=production (see the transform below). */
    SEED_DEMO: booleanFlag.optional(),
    LICENSE_SIGNING_KEY: z
      .string()
      // A PEM in one environment line usually arrives with its line breaks written as \n.
      .transform((value) => value.replace(/\\n/g, "\n").trim())
      .refine(isEd25519PrivateKey, "must be an Ed25519 private key in PEM (`openssl genpkey -algorithm ed25519`)")
      .optional(),
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
    BILLING_PROVIDER: z
      .enum(["local", "chargebee"], { errorMap: () => ({ message: "must be local or chargebee" }) })
      .default("local"),
    CHARGEBEE_SITE: z.string().optional(),
    CHARGEBEE_API_KEY: z.string().optional(),
    CHARGEBEE_GATEWAY_ACCOUNT_ID: z.string().optional(),
    /** The site's publishable key, for Chargebee.js on the page where a cardholder authenticates a payment. */
    CHARGEBEE_PUBLISHABLE_KEY: z.string().optional(),
    /** Another host for Chargebee's API than the site's (http://127.0.0.1:PORT for a local fake); unset, the site's. */
    CHARGEBEE_API_URL: apiUrl,
    /** The basic-auth user name and password Chargebee's webhook settings send to POST /webhooks/chargebee. */
    CHARGEBEE_WEBHOOK_USERNAME: z.string().optional(),
    CHARGEBEE_WEBHOOK_PASSWORD: z
      .string()
      .min(16, "must be at least 16 characters (e.g. `openssl rand -hex 16`): it lets in the provider's events")
      .optional(),
    CARD_PROVIDER: z
      .enum(["local", "stripe"], { errorMap: () => ({ message: "must be local or stripe" }) })
      .default("local"),
    STRIPE_SECRET_KEY: z.string().startsWith("sk_", "must be a Stripe secret key (sk_...)").optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().startsWith("pk_", "must be a Stripe publishable key (pk_...)").optional(),
    /** Another host for Stripe's API than api.stripe.com (http://127.0.0.1:PORT for a local fake); unset, Stripe's own. */
    STRIPE_API_URL: apiUrl,
    /** How long a job runner holds a job without renewing; a crashed process's jobs are taken over after it. */
    JOB_LEASE_MS: z.coerce.number().int().min(500).max(600_000).default(20_000),
    /** The first retry's wait; each further retry waits twice as long, up to a minute. */
    JOB_BACKOFF_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
    /**
     * How often the portal reconciles its copy of the billing provider's state (polls the events list, re-reads
     * every running subscription); also at start-up when a run fell due while the portal was down.
     */
    RECONCILIATION_MINUTES: z.coerce
      .number({ invalid_type_error: "must be a number of minutes" })
      .int()
      .min(1)
      .max(1440)
      .default(60),
    /** How long after a deployment stopped at registering or waiting for its Hub 'Try again' opens. */
    HUB_RETRY_WAIT_MS: z.coerce
      .number({ invalid_type_error: "must be a number of milliseconds" })
      .int()
      .min(0)
      .max(600_000)
      .default(30_000),
    HUB_PROVIDER: z
      .enum(["local", "http"], { errorMap: () => ({ message: "must be local or http" }) })
      .default("local"),
    HUB_SERVICE_URL: z.string().url("must be the Hub service's URL, e.g. https://hubs.example.com").optional(),
    HUB_SERVICE_TOKEN: z.string().optional(),
    /** The fixed Hub host: a cloud Hub's address is https://{subdomain}.{HUB_HOST}. */
    HUB_HOST: z
      .string()
      .regex(/^[a-z0-9.-]+(:\d+)?$/i, "must be a host name, e.g. hub.gatekeeper.example")
      .default("hub.gatekeeper.example"),
    /** The simulator's Hubs are ready this many seconds after creation and running as many later. */
    HUB_SIM_STARTUP_SECONDS: z.coerce
      .number({ invalid_type_error: "must be a number of seconds" })
      .min(0)
      .max(600)
      .optional(),
    /**
     * The portal's public origin (https://portal.example.com): every request's URL is built on it (scripts/server.mjs)
     * and so is every link in a mail. Unset, the URL takes a Host that is a host name.
     */
    PUBLIC_URL: z
      .string()
      .transform((value, ctx) => {
        try {
          return parsePublicUrl(value);
        } catch (error) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
          return z.NEVER;
        }
      })
      .optional(),
    /** The SMTP server mail goes out through (STARTTLS when it offers it); unset, mail is kept in the outbox table. */
    SMTP_URL: z
      .string()
      .url("must be an SMTP URL, e.g. smtp://user:password@mail.example.com:587")
      .refine((value) => /^smtps?:$/.test(new URL(value).protocol), "must start with smtp:// or smtps://")
      .optional(),
    /** Who the portal's mail is from: an address, or a name and an address ('GateKeeper Portal <portal@example.com>'). */
    MAIL_FROM: z
      .string()
      .refine(isOneMailbox, "must be one address, e.g. GateKeeper Portal <portal@example.com>")
      .optional(),
    /** The register VAT numbers are checked with: the embedded simulator, or the EU's VIES. */
    TAX_ID_PROVIDER: z
      .enum(["local", "vies"], { errorMap: () => ({ message: "must be local or vies" }) })
      .default("local"),
    VIES_URL: z
      .string()
      .url("must be the VIES REST API's address, e.g. https://ec.europa.eu/taxation_customs/vies/rest-api")
      .default(VIES_BASE_URL),
    /**
     * The seller every invoice names (the EU's invoicing rules ask for its legal name, address and VAT number):
     * the address's lines are separated by \n or by |.
     */
    SELLER_LEGAL_NAME: z.string().trim().min(1).max(200).optional(),
    SELLER_ADDRESS: z
      .string()
      .max(500)
      .transform((value) =>
        value
          .split(/\\n|\n|\|/)
          .map((line) => line.trim())
          .filter(Boolean),
      )
      .refine((lines) => lines.length > 0, "must have at least one line")
      .optional(),
    SELLER_VAT_NUMBER: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}[A-Z0-9+*]{2,15}$/, "must be a VAT number with its country prefix, e.g. IE6388047V")
      .optional(),
    /** The least severe log lines written (pino's levels); `silent` writes none. */
    LOG_LEVEL: z
      .enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"], {
        errorMap: () => ({ message: "must be trace, debug, info, warn, error, fatal or silent" }),
      })
      .default("info"),
    /**
     * The bearer token a scrape of /metrics on the portal's own port must carry; unset, /metrics is not served
     * there (only on METRICS_PORT, when that is set).
     */
    METRICS_TOKEN: z
      .string()
      .min(16, "must be at least 16 characters (e.g. `openssl rand -hex 16`): it lets a scraper read the metrics")
      .optional(),
    /**
     * Where an administrator finds one organization's requests in the log store: a URL with `{organizationId}`
     * in it (a saved search of Grafana, Kibana, ...). Unset, the admin page only says which query to run.
     */
    LOG_SEARCH_URL: z
      .string()
      .url("must be a URL with {organizationId} in it")
      .refine((value) => value.includes("{organizationId}"), "must contain {organizationId}")
      .optional(),
    HUB_SIM_DATABASE_URL: z.string().min(1).default("file:./data/hub-sim.sqlite"),
    HUB_SIM_PORT: z.coerce
      .number({ invalid_type_error: "must be a port number" })
      .int()
      .min(0)
      .max(65535)
      .default(4010),
  })
  // A production start never seeds the public demo accounts unless SEED_DEMO=true says so.
  .transform(({ SEED_DEMO, MAIL_FROM, ...rest }) =>
    withDemoSeller({
      ...rest,
      SEED_DEMO: SEED_DEMO ?? rest.NODE_ENV !== "production",
      // Only the embedded outbox may do without one: its mail never leaves the portal.
      MAIL_FROM: MAIL_FROM ?? (rest.SMTP_URL ? "" : "GateKeeper Portal <portal@localhost>"),
    }),
  )
  .superRefine((env, ctx) => {
    // A real provider needs its keys, and the two real ones only work together: Chargebee takes card
    // tokens from Stripe, and the embedded engine only knows the embedded test cards.
    const required = (name: keyof typeof env, when: string) => {
      if (!env[name]) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: `is required when ${when}` });
    };
    if (env.BILLING_PROVIDER === "chargebee") {
      for (const name of [
        "CHARGEBEE_SITE",
        "CHARGEBEE_API_KEY",
        "CHARGEBEE_GATEWAY_ACCOUNT_ID",
        "CHARGEBEE_PUBLISHABLE_KEY",
        "CHARGEBEE_WEBHOOK_USERNAME",
        "CHARGEBEE_WEBHOOK_PASSWORD",
      ] as const) {
        required(name, "BILLING_PROVIDER=chargebee");
      }
    }
    // Stripe's card pages (its bank page, its Checkout page) send the cardholder back to the portal's own address.
    if (env.CARD_PROVIDER === "stripe") {
      for (const name of ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "PUBLIC_URL"] as const)
        required(name, "CARD_PROVIDER=stripe");
    }
    if (env.HUB_PROVIDER === "http") {
      for (const name of ["HUB_SERVICE_URL", "HUB_SERVICE_TOKEN"] as const) required(name, "HUB_PROVIDER=http");
    }
    if ((env.BILLING_PROVIDER === "chargebee") !== (env.CARD_PROVIDER === "stripe")) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["CARD_PROVIDER"],
        message: "must be stripe with BILLING_PROVIDER=chargebee, and local with BILLING_PROVIDER=local",
      });
    }
    // Mail that leaves the portal names a real sender, and its links the portal's real address: a link built on
    // a Host a visitor sent could hand a sign-in link to their site.
    if (env.SMTP_URL) {
      required("MAIL_FROM", "SMTP_URL is set");
      required("PUBLIC_URL", "SMTP_URL is set");
    }
    // Demo mode may generate its own secret; a real deployment must bring one so that
    // sessions survive a redeploy and are the same on every instance.
    if (!env.SEED_DEMO && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["SESSION_SECRET"],
        message: "is required unless SEED_DEMO=true (e.g. `openssl rand -hex 32`)",
      });
    }
    // License files must verify with the same public key after every redeploy and on every instance.
    if (!env.SEED_DEMO && !env.LICENSE_SIGNING_KEY) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["LICENSE_SIGNING_KEY"],
        message: "is required unless SEED_DEMO=true (e.g. `openssl genpkey -algorithm ed25519`)",
      });
    }
    // The embedded engine renders the invoices, which must name the seller; a demo names a made-up one.
    if (env.BILLING_PROVIDER === "local") {
      for (const name of ["SELLER_LEGAL_NAME", "SELLER_ADDRESS", "SELLER_VAT_NUMBER"] as const) {
        required(name, "the embedded billing engine renders invoices (BILLING_PROVIDER=local) unless SEED_DEMO=true");
      }
    }
  });

/** The seller a demo's invoices name when the configuration names none: made up, and saying so. */
export const DEMO_SELLER = {
  SELLER_LEGAL_NAME: "GateKeeper Demo Ltd. (demo seller)",
  SELLER_ADDRESS: ["1 Demo Quay", "Dublin 2, D02 X285", "Ireland"],
  SELLER_VAT_NUMBER: "IE6388047V",
};

function withDemoSeller<
  T extends { SEED_DEMO: boolean; SELLER_LEGAL_NAME?: string; SELLER_ADDRESS?: string[]; SELLER_VAT_NUMBER?: string },
>(env: T): T {
  if (!env.SEED_DEMO) return env;
  return {
    ...env,
    SELLER_LEGAL_NAME: env.SELLER_LEGAL_NAME ?? DEMO_SELLER.SELLER_LEGAL_NAME,
    SELLER_ADDRESS: env.SELLER_ADDRESS ?? DEMO_SELLER.SELLER_ADDRESS,
    SELLER_VAT_NUMBER: env.SELLER_VAT_NUMBER ?? DEMO_SELLER.SELLER_VAT_NUMBER,
  };
}

function isOneMailbox(value: string): boolean {
  const parsed = addressparser(value, { flatten: true });
  return parsed.length === 1 && z.string().email().safeParse(parsed[0].address).success;
}

function isEd25519PrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

export type PortalEnv = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): PortalEnv {
  // An empty variable means "not set", as in most .env files.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`${issue.path.join(".")} ${issue.message}`);
  }
  return result.data;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

function loadEnv(): PortalEnv {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

export const env = loadEnv();
