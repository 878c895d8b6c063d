ALTER TABLE "memberships" ADD COLUMN "sort_last_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "sort_first_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "memberships_name_idx" ON "memberships" USING btree ("organization_id","sort_last_name","sort_first_name","user_id");--> statement-breakpoint
-- Hand-written below: drizzle's schema cannot declare triggers. memberships.sort_last_name and sort_first_name
-- copy the person's name so the team page reads one page of members off memberships_name_idx, in the order it
-- always had (last name, first name, then the person's id; same column type and collation as users' names),
-- instead of joining and sorting every member. These triggers keep the copy in the same transaction as the
-- change, whichever code (or tool) writes it, as SQLite's triggers do (db/migrations/0017_member_name_order.sql).
CREATE FUNCTION "memberships_copy_name"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	SELECT "last_name", "first_name" INTO NEW."sort_last_name", NEW."sort_first_name"
		FROM "users" WHERE "id" = NEW."user_id";
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "memberships_name_before_insert_or_new_person" BEFORE INSERT OR UPDATE OF "user_id" ON "memberships"
	FOR EACH ROW EXECUTE FUNCTION "memberships_copy_name"();
--> statement-breakpoint
CREATE FUNCTION "memberships_follow_person_renamed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "memberships" SET "sort_last_name" = NEW."last_name", "sort_first_name" = NEW."first_name"
		WHERE "user_id" = NEW."id";
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "memberships_name_after_person_renamed" AFTER UPDATE OF "first_name", "last_name" ON "users"
	FOR EACH ROW WHEN (NEW."first_name" IS DISTINCT FROM OLD."first_name" OR NEW."last_name" IS DISTINCT FROM OLD."last_name")
	EXECUTE FUNCTION "memberships_follow_person_renamed"();
--> statement-breakpoint
-- The memberships already there (a data step: runs once, in the same migration as the triggers).
UPDATE "memberships" SET "sort_last_name" = "users"."last_name", "sort_first_name" = "users"."first_name"
	FROM "users" WHERE "users"."id" = "memberships"."user_id";
