CREATE TABLE "organization_counts" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	"invoices" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_counts" ADD CONSTRAINT "organization_counts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written below: drizzle's schema cannot declare triggers. organization_counts holds each organization's
-- number of members and of invoices; these triggers keep it in the same transaction as the change to memberships
-- or invoices, whichever code (or tool) writes it, as SQLite's triggers do
-- (db/migrations/0016_organization_counts.sql). The upserts are safe under concurrent inserts for one
-- organization. TRUNCATE fires no row trigger: never truncate memberships or invoices alone.
-- One function for both tables: TG_ARGV[0] is the row's column naming its organization, TG_ARGV[1] the total it
-- counts in; both are fixed by the CREATE TRIGGER statements below, never by data.
CREATE FUNCTION "organization_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		EXECUTE format('UPDATE "organization_counts" SET %1$I = %1$I - 1 WHERE "organization_id" = $1', TG_ARGV[1])
			USING to_jsonb(OLD) ->> TG_ARGV[0];
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		EXECUTE format('INSERT INTO "organization_counts" ("organization_id", %1$I) VALUES ($1, 1)
			ON CONFLICT ("organization_id") DO UPDATE SET %1$I = "organization_counts".%1$I + 1', TG_ARGV[1])
			USING to_jsonb(NEW) ->> TG_ARGV[0];
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_member_insert_or_delete" AFTER INSERT OR DELETE ON "memberships"
	FOR EACH ROW EXECUTE FUNCTION "organization_counts_follow"('organization_id', 'members');
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_member_move" AFTER UPDATE OF "organization_id" ON "memberships"
	FOR EACH ROW WHEN (NEW."organization_id" IS DISTINCT FROM OLD."organization_id")
	EXECUTE FUNCTION "organization_counts_follow"('organization_id', 'members');
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_invoice_insert_or_delete" AFTER INSERT OR DELETE ON "invoices"
	FOR EACH ROW EXECUTE FUNCTION "organization_counts_follow"('owner_id', 'invoices');
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_invoice_move" AFTER UPDATE OF "owner_id" ON "invoices"
	FOR EACH ROW WHEN (NEW."owner_id" IS DISTINCT FROM OLD."owner_id")
	EXECUTE FUNCTION "organization_counts_follow"('owner_id', 'invoices');
--> statement-breakpoint
-- The members and invoices already there (a data step: runs once, in the same migration as the triggers).
INSERT INTO "organization_counts" ("organization_id", "members", "invoices")
	SELECT "id",
		(SELECT count(*) FROM "memberships" WHERE "memberships"."organization_id" = "organizations"."id"),
		(SELECT count(*) FROM "invoices" WHERE "invoices"."owner_id" = "organizations"."id")
	FROM "organizations";
