CREATE TABLE "renewal_reminders" (
	"subscription_id" text NOT NULL,
	"renews_at" timestamp (3) with time zone NOT NULL,
	"reminder" text NOT NULL,
	"owner_id" text NOT NULL,
	"job_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_reminders_subscription_id_renews_at_reminder_pk" PRIMARY KEY("subscription_id","renews_at","reminder")
);
--> statement-breakpoint
ALTER TABLE "hub_installations" ADD COLUMN "licensee_id" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "licensee_id" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "managed_by" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "address" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "contact_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "renewal_reminders" ADD CONSTRAINT "renewal_reminders_owner_id_organizations_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_installations" ADD CONSTRAINT "hub_installations_licensee_id_organizations_id_fk" FOREIGN KEY ("licensee_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_licensee_id_organizations_id_fk" FOREIGN KEY ("licensee_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_managed_by_organizations_id_fk" FOREIGN KEY ("managed_by") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hub_installations_licensee_last_seen_idx" ON "hub_installations" USING btree ("licensee_id","last_seen","id");--> statement-breakpoint
CREATE INDEX "licenses_licensee_valid_from_idx" ON "licenses" USING btree ("licensee_id","valid_from","id");--> statement-breakpoint
CREATE INDEX "organizations_managed_by_name_idx" ON "organizations" USING btree ("managed_by","name","id");--> statement-breakpoint
CREATE INDEX "subscriptions_owner_term_end_idx" ON "subscriptions" USING btree ("owner_id","current_term_end","status");--> statement-breakpoint
CREATE INDEX "subscriptions_status_term_end_idx" ON "subscriptions" USING btree ("status","current_term_end");