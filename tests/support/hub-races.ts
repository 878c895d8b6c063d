/** Each answer of calls made at once: what it returned, or the code it was refused with. */
export const settled = async <T>(calls: Promise<T>[]) =>
  (await Promise.allSettled(calls)).map((outcome) =>
    outcome.status === "fulfilled" ? outcome.value : ((outcome.reason as { code?: string }).code ?? outcome.reason),
  );

/** A license file check that accepts any file as one license, for Hubs that race to upload it. */
export const racedLicense = () => ({
  externalLicenseId: "GK-RACED",
  name: "Raced",
  nodes: 5,
  planType: "core",
  hasCloudSupport: true,
  validFrom: new Date(Date.now() - 86_400_000).toISOString(),
  validTo: new Date(Date.now() + 86_400_000).toISOString(),
});

/** The administrator each raced Hub is set up with. */
export const raceAdministrator = {
  userName: "race-admin",
  firstName: "R",
  lastName: "A",
  phoneNumber: "",
  email: "r@example.org",
  password: "Hub-admin-1",
};
