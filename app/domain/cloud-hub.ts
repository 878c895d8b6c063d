import { z } from "zod";
import { INVALID_EMAIL } from "./fields";
import { normalSubdomain, subdomainProblem } from "./hub-subdomain";
import { CLOUD_HUB_STEPS, SELECT_A_LICENSE, isHubPhone, type CloudHubStep } from "./cloud-hub-steps";
import { wizardProgressFields, type StepIssue } from "./wizard";

export * from "./cloud-hub-steps";

/** The administrator as the draft and the job keep it: everything but the password, which is sealed apart. */
export const hubAdministratorSchema = z.object({
  userName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string(),
  email: z.string(),
});
export type HubAdministratorFields = z.infer<typeof hubAdministratorSchema>;

export const cloudHubDraftSchema = z.object({
  subdomain: z.string().default(""),
  region: z.enum(["US", "EU"]).default("US"),
  licenseId: z.string().nullable().default(null),
  administrator: hubAdministratorSchema.nullable().default(null),
  /** The typed administrator password, sealed (server/wizards/sealed.server.ts); never plaintext. */
  sealedPassword: z.string().nullable().default(null),
  ...wizardProgressFields(CLOUD_HUB_STEPS),
});
export type CloudHubDraft = z.infer<typeof cloudHubDraftSchema>;

/** Step 1: the subdomain's form (the service's availability check comes after, on Next). */
export const urlStepSchema = z.object({
  subdomain: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      const problem = subdomainProblem(value);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
    .transform(normalSubdomain),
  /** Any value other than "2" is region 1. */
  hubRegion: z.enum(["1", "2"]).catch("1"),
});

export const licenseStepSchema = z.object({
  licenseId: z.string({ required_error: SELECT_A_LICENSE }).trim().min(1, SELECT_A_LICENSE),
});

export const CANT_BE_EMPTY = "Can't be empty.";
export const USER_NAME_CHARACTERS = "Only alphanumeric characters and hyphen are allowed.";
export const INVALID_HUB_PHONE = "Invalid phone number.";
export const PASSWORD_REQUIREMENTS = "Does not meet requirements.";
export const PASSWORD_MISMATCH = "Doesn't match password.";

/** At least 8 characters with a digit, a lowercase and an uppercase letter. */
export const meetsHubPasswordRules = (password: string) =>
  password.length >= 8 && /\d/.test(password) && /[a-z]/.test(password) && /[A-Z]/.test(password);

const filled = z.string().trim().min(1, CANT_BE_EMPTY);

/** Step 3, the Hub administrator. */
export const adminStepSchema = z
  .object({
    userName: filled.pipe(z.string().regex(/^[A-Za-z0-9-]+$/, USER_NAME_CHARACTERS)),
    firstName: filled,
    lastName: filled,
    phoneNumber: z
      .string()
      .trim()
      .default("")
      .refine((value) => value === "" || isHubPhone(value), INVALID_HUB_PHONE),
    email: filled.pipe(z.string().email(INVALID_EMAIL)),
    password: z.string().min(1, CANT_BE_EMPTY).pipe(z.string().refine(meetsHubPasswordRules, PASSWORD_REQUIREMENTS)),
    confirmPassword: z.string().default(""),
  })
  .superRefine((value, ctx) => {
    if (value.confirmPassword !== value.password)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["confirmPassword"], message: PASSWORD_MISMATCH });
  });

/** The rules over the whole draft: a step whose values went missing is no longer done. */
export function checkCloudHubDraft(data: CloudHubDraft): { data: CloudHubDraft; issues: StepIssue<CloudHubStep>[] } {
  const issues: StepIssue<CloudHubStep>[] = [];
  if (subdomainProblem(data.subdomain)) issues.push({ step: "url", message: "Please choose the Hub's address again." });
  if (!data.licenseId) issues.push({ step: "license", message: SELECT_A_LICENSE });
  if (!data.administrator || !data.sealedPassword)
    issues.push({ step: "admin", message: "Please enter the Hub administrator again." });
  return { data, issues };
}

/** A license that expired less than a day ago can still make a cloud Hub. */
export const CLOUD_HUB_EXPIRY_GRACE_MS = 24 * 60 * 60 * 1000;

/** The deployment's failure screens, by the stage that stopped. */
export const DEPLOYMENT_FAILURES = {
  create: {
    title: "Error Creating Hub",
    message: "Error creating your GateKeeper Cloud Hub! Please contact us on the Support page.",
  },
  register: {
    title: "Registering new GateKeeper Hub was interrupted.",
    message:
      "Your GateKeeper Cloud Hub exists but is not registered with the portal yet. Please check again after 30 seconds.",
  },
  notReady: {
    title: "Did not finish creating GateKeeper Cloud Hub.",
    message: "Your Hub is still being created. Please check again after 30 seconds.",
  },
  notRunning: {
    title: "Did not finish starting your GateKeeper Cloud Hub.",
    message: "Your Hub is still starting. Please check again after 30 seconds.",
  },
  admin: {
    title: "Could not set up GateKeeper Cloud Hub admin account.",
    message:
      "Failed to create hub administrator account. Your GateKeeper Cloud Hub exists but has no administrator or license yet.",
  },
  upload: {
    title: "Could not upload the license to GateKeeper Cloud Hub.",
    message: "Failed to upload license. Please log in to your Hub and upload the license manually.",
  },
  other: { title: "Failed to create cloud Hub.", message: "Failed to create cloud Hub." },
} as const;
