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
CREATE FUNCTION "organization_counts_follow_memberships"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		UPDATE "organization_counts" SET "members" = "members" - 1 WHERE "organization_id" = OLD."organization_id";
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO "organization_counts" ("organization_id", "members") VALUES (NEW."organization_id", 1)
			ON CONFLICT ("organization_id") DO UPDATE SET "members" = "organization_counts"."members" + 1;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "organization_counts_follow_invoices"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		UPDATE "organization_counts" SET "invoices" = "invoices" - 1 WHERE "organization_id" = OLD."owner_id";
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO "organization_counts" ("organization_id", "invoices") VALUES (NEW."owner_id", 1)
			ON CONFLICT ("organization_id") DO UPDATE SET "invoices" = "organization_counts"."invoices" + 1;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_member_insert" AFTER INSERT ON "memberships"
	FOR EACH ROW EXECUTE FUNCTION "organization_counts_follow_memberships"();
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_member_delete" AFTER DELETE ON "memberships"
	FOR EACH ROW EXECUTE FUNCTION "organization_counts_follow_memberships"();
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_member_move" AFTER UPDATE OF "organization_id" ON "memberships"
	FOR EACH ROW WHEN (NEW."organization_id" IS DISTINCT FROM OLD."organization_id")
	EXECUTE FUNCTION "organization_counts_follow_memberships"();
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_invoice_insert" AFTER INSERT ON "invoices"
	FOR EACH ROW EXECUTE FUNCTION "organization_counts_follow_invoices"();
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_invoice_delete" AFTER DELETE ON "invoices"
	FOR EACH ROW EXECUTE FUNCTION "organization_counts_follow_invoices"();
--> statement-breakpoint
CREATE TRIGGER "organization_counts_after_invoice_move" AFTER UPDATE OF "owner_id" ON "invoices"
	FOR EACH ROW WHEN (NEW."owner_id" IS DISTINCT FROM OLD."owner_id")
	EXECUTE FUNCTION "organization_counts_follow_invoices"();
--> statement-breakpoint
-- The members and invoices already there (a data step: runs once, in the same migration as the triggers).
INSERT INTO "organization_counts" ("organization_id", "members", "invoices")
	SELECT "id",
		(SELECT count(*) FROM "memberships" WHERE "memberships"."organization_id" = "organizations"."id"),
		(SELECT count(*) FROM "invoices" WHERE "invoices"."owner_id" = "organizations"."id")
	FROM "organizations";
