-- Hand-written (drizzle-kit generate --custom): a distributor used to type the name of the organization a license
-- is for into the order. Each distinct name among a distributor's licenses (other than the distributor's own, which
-- its trials carry) becomes an end customer that the distributor manages, and its licenses, and the Hubs made from
-- them, are licensed to it, as db/migrations/0020_end_customers_from_license_names.sql does on SQLite. Run once,
-- on the rows there are; the new organizations' ids are random.
INSERT INTO "organizations" ("id", "name", "customer_type", "country", "managed_by")
SELECT gen_random_uuid()::text, "named"."name", 'customer', '', "named"."owner_id"
FROM (
	SELECT DISTINCT "licenses"."owner_id", "licenses"."name"
	FROM "licenses"
	INNER JOIN "organizations" AS "distributor" ON "distributor"."id" = "licenses"."owner_id"
	WHERE "distributor"."customer_type" = 'distributor'
		AND "distributor"."managed_by" IS NULL
		AND trim("licenses"."name") <> ''
		AND lower(trim("licenses"."name")) <> lower(trim("distributor"."name"))
) AS "named";
--> statement-breakpoint
UPDATE "licenses"
SET "licensee_id" = "customer"."id"
FROM "organizations" AS "customer"
WHERE "licenses"."licensee_id" IS NULL
	AND "customer"."managed_by" = "licenses"."owner_id"
	AND "customer"."name" = "licenses"."name";
--> statement-breakpoint
UPDATE "hub_installations"
SET "licensee_id" = (
	SELECT min("licenses"."licensee_id") FROM "hub_installation_licenses"
	INNER JOIN "licenses" ON "licenses"."id" = "hub_installation_licenses"."license_id"
	WHERE "hub_installation_licenses"."hub_installation_id" = "hub_installations"."id"
		AND "licenses"."owner_id" = "hub_installations"."owner_id"
)
WHERE "licensee_id" IS NULL
	AND "owner_id" IN (SELECT "managed_by" FROM "organizations" WHERE "managed_by" IS NOT NULL);
--> statement-breakpoint
INSERT INTO "activity" ("organization_id", "actor_user_id", "actor_name", "action", "summary")
SELECT "customer"."id", NULL, 'GateKeeper', 'organization.created',
	'GateKeeper made this organization an end customer of ' || "distributor"."name" || ', with the licenses bought for it.'
FROM "organizations" AS "customer"
INNER JOIN "organizations" AS "distributor" ON "distributor"."id" = "customer"."managed_by";
--> statement-breakpoint
INSERT INTO "activity" ("organization_id", "actor_user_id", "actor_name", "action", "summary")
SELECT "distributor"."id", NULL, 'GateKeeper', 'customer.created',
	'GateKeeper made ' || "customer"."name" || ' an end customer, with the licenses bought for it.'
FROM "organizations" AS "customer"
INNER JOIN "organizations" AS "distributor" ON "distributor"."id" = "customer"."managed_by";
