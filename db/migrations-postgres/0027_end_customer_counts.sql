ALTER TABLE "organization_counts" ADD COLUMN "end_customers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written below: drizzle's schema cannot declare triggers. end_customers is a distributor's number of end
-- customers (organizations whose managed_by names it), kept by the function of 0007_organization_counts in the same
-- transaction as the organization's insert, delete or move, as SQLite's triggers do
-- (db/migrations/0036_end_customer_counts.sql, decision 237). The function now passes over a row that names no
-- organization: an organization of no distributor (managed_by null) counts nowhere; memberships and invoices always
-- name one.
CREATE OR REPLACE FUNCTION "organization_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('DELETE', 'UPDATE') AND to_jsonb(OLD) ->> TG_ARGV[0] IS NOT NULL THEN
		EXECUTE format('UPDATE "organization_counts" SET %1$I = %1$I - 1 WHERE "organization_id" = $1', TG_ARGV[1])
			USING to_jsonb(OLD) ->> TG_ARGV[0];
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND to_jsonb(NEW) ->> TG_ARGV[0] IS NOT NULL THEN
		EXECUTE format('INSERT INTO "organization_counts" ("organization_id", %1$I) VALUES ($1, 1)
			ON CONFLICT ("organization_id") DO UPDATE SET %1$I = "organization_counts".%1$I + 1', TG_ARGV[1])
			USING to_jsonb(NEW) ->> TG_ARGV[0];
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_end_customer_insert_or_delete" AFTER INSERT OR DELETE ON "organizations"
	FOR EACH ROW EXECUTE FUNCTION "organization_counts_follow"('managed_by', 'end_customers');
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_end_customer_move" AFTER UPDATE OF "managed_by" ON "organizations"
	FOR EACH ROW WHEN (NEW."managed_by" IS DISTINCT FROM OLD."managed_by")
	EXECUTE FUNCTION "organization_counts_follow"('managed_by', 'end_customers');
--> statement-breakpoint
-- The end customers already there (a data step: runs once, in the same migration as the triggers).
INSERT INTO "organization_counts" ("organization_id", "end_customers")
	SELECT "managed_by", count(*) FROM "organizations" WHERE "managed_by" IS NOT NULL GROUP BY "managed_by"
	ON CONFLICT ("organization_id") DO UPDATE SET "end_customers" = excluded."end_customers";
