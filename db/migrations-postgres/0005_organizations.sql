CREATE TABLE "activity" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" text NOT NULL,
	"actor_user_id" text,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"summary" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"invited_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"customer_type" text DEFAULT 'customer' NOT NULL,
	"billing_customer_id" text,
	"shipping_address" jsonb,
	"country" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_billing_customer_id_unique" UNIQUE("billing_customer_id")
);
--> statement-breakpoint
ALTER TABLE "drafts" DROP CONSTRAINT "drafts_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "hub_installations" DROP CONSTRAINT "hub_installations_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "license_counts" DROP CONSTRAINT "license_counts_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "licenses" DROP CONSTRAINT "licenses_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_owner_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "trials" DROP CONSTRAINT "trials_user_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "drafts_owner_wizard_idx";--> statement-breakpoint
DROP INDEX "trials_user_idx";--> statement-breakpoint
ALTER TABLE "one_time_tokens" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "user_id" text;--> statement-breakpoint
-- Hand-written: a draft was its user's and stays that person's, in the organization their account becomes
-- (which takes the user's id, so every owner_id keeps naming the same data).
UPDATE "drafts" SET "user_id" = "owner_id";--> statement-breakpoint
ALTER TABLE "drafts" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN "invitation_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "organization_id" text;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "owner_id" text;--> statement-breakpoint
-- Hand-written: a trial was its user's; it becomes their organization's, started by them.
UPDATE "trials" SET "owner_id" = "user_id";--> statement-breakpoint
ALTER TABLE "trials" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_signed_in_at" timestamp (3) with time zone;--> statement-breakpoint
-- Hand-written data steps, before the foreign keys below check them. Every account becomes an organization of one
-- member, its owner, with nothing lost: the organization takes the user's id (so the owner_id of every license,
-- Hub, trial, draft and job, and every key derived from it, keeps naming the same data), its company as the name
-- (else the person's), and the customer type, billing customer and shipping address that were the user's.
INSERT INTO "organizations" ("id", "name", "customer_type", "billing_customer_id", "shipping_address", "created_at")
	SELECT "id", CASE WHEN trim("company") <> '' THEN trim("company") ELSE trim("first_name" || ' ' || "last_name") END,
		"customer_type", "billing_customer_id", "shipping_address", "created_at"
	FROM "users";--> statement-breakpoint
INSERT INTO "memberships" ("organization_id", "user_id", "role", "created_at")
	SELECT "id", "id", 'owner', "created_at" FROM "users";--> statement-breakpoint
-- The accounts there are were made by GateKeeper (the demo seed, sales): their addresses count as verified.
UPDATE "users" SET "email_verified_at" = "created_at";--> statement-breakpoint
INSERT INTO "activity" ("organization_id", "actor_user_id", "actor_name", "action", "summary")
	SELECT "id", NULL, 'GateKeeper', 'organization.created',
		'The account of ' || trim("first_name" || ' ' || "last_name") || ' became this organization, with them as its Owner.'
	FROM "users";--> statement-breakpoint
-- The activity log is never changed once written; only the link to a member whose account was deleted goes
-- (ON DELETE SET NULL: the entry keeps their name).
CREATE FUNCTION "activity_never_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'The activity log is never changed.';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "activity_never_changes" BEFORE UPDATE OF "id", "organization_id", "actor_name", "action", "summary", "created_at" ON "activity"
	FOR EACH ROW EXECUTE FUNCTION "activity_never_changes"();--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_organization_idx" ON "activity" USING btree ("organization_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_organization_email_idx" ON "invitations" USING btree ("organization_id","email");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_installations" ADD CONSTRAINT "hub_installations_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_counts" ADD CONSTRAINT "license_counts_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_invitation_id_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."invitations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drafts_owner_user_wizard_idx" ON "drafts" USING btree ("owner_id","user_id","wizard");--> statement-breakpoint
CREATE INDEX "one_time_tokens_invitation_idx" ON "one_time_tokens" USING btree ("invitation_id");--> statement-breakpoint
CREATE INDEX "trials_owner_idx" ON "trials" USING btree ("owner_id");