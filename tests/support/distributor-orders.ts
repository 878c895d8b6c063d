/**
 * What a distributor's orders left in the database before end customers: licenses named for the organizations they
 * were for (two for one of them, whose second is on a cloud Hub), and a license named for the distributor itself
 * (its own trial's), which stays its own: plain SQL statements (`?` placeholders) naming only the columns every
 * version of the tables has, for either engine to run in order.
 */
export const END_CUSTOMER_NAMES = ["Acme Dental", "Birch & Law LLP"];

export function distributorOrders({
  distributorId,
  distributorName,
  at,
}: {
  distributorId: string;
  distributorName: string;
  at: number;
}) {
  const statements: [string, unknown[]][] = [];
  const run = (query: string, params: unknown[]) => statements.push([query, params]);
  const licenses = [
    { id: "reseller-license-1", name: "Acme Dental", external: "GK-RS-0001" },
    { id: "reseller-license-2", name: "Birch & Law LLP", external: "GK-RS-0002" },
    { id: "reseller-license-3", name: "Acme Dental", external: "GK-RS-0003" },
    { id: "reseller-license-4", name: distributorName, external: "GK-TRIAL-RS04" },
  ];
  for (const license of licenses) {
    run(
      "insert into licenses (id, owner_id, external_license_id, name, nodes, plan_type, type, valid_from, valid_to, license_code) values (?, ?, ?, ?, 10, 'core', 'recurring', ?, ?, '{}')",
      [license.id, distributorId, license.external, license.name, at, at + 365 * 24 * 60 * 60 * 1000],
    );
  }
  const hubId = "reseller-cloud-hub";
  run(
    "insert into hub_installations (id, owner_id, type, url) values (?, ?, 'cloud', 'https://acme-dental.example.com')",
    [hubId, distributorId],
  );
  run("insert into hub_installation_licenses (hub_installation_id, license_id) values (?, ?)", [
    hubId,
    "reseller-license-3",
  ]);
  return { statements, distributorId, distributorName, hubId, hubLicenseName: "Acme Dental" };
}
