-- Hand-written (drizzle-kit generate --custom): drizzle's schema cannot declare triggers. license_counts holds
-- each owner's number of licenses; these triggers keep it in the same transaction as the change to licenses,
-- whichever code (or tool) writes it, as SQLite's triggers do (db/migrations/0010_license_counts_triggers.sql).
-- The upsert is safe under concurrent inserts for one owner. TRUNCATE fires no row trigger: never truncate
-- licenses alone.
CREATE FUNCTION "license_counts_follow_licenses"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		UPDATE "license_counts" SET "total" = "total" - 1 WHERE "owner_id" = OLD."owner_id";
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO "license_counts" ("owner_id", "total") VALUES (NEW."owner_id", 1)
			ON CONFLICT ("owner_id") DO UPDATE SET "total" = "license_counts"."total" + 1;
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "license_counts_after_insert" AFTER INSERT ON "licenses"
	FOR EACH ROW EXECUTE FUNCTION "license_counts_follow_licenses"();
--> statement-breakpoint
CREATE TRIGGER "license_counts_after_delete" AFTER DELETE ON "licenses"
	FOR EACH ROW EXECUTE FUNCTION "license_counts_follow_licenses"();
--> statement-breakpoint
CREATE TRIGGER "license_counts_after_owner_change" AFTER UPDATE OF "owner_id" ON "licenses"
	FOR EACH ROW WHEN (NEW."owner_id" IS DISTINCT FROM OLD."owner_id") EXECUTE FUNCTION "license_counts_follow_licenses"();
--> statement-breakpoint
-- The licenses already there (a data step: runs once, in the same migration as the triggers).
INSERT INTO "license_counts" ("owner_id", "total") SELECT "owner_id", count(*) FROM "licenses" GROUP BY "owner_id";
