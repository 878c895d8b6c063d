ALTER TABLE "hub_installations" ADD COLUMN "licensee_id" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "licensee_id" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "managed_by" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "address" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "contact_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "hub_installations" ADD CONSTRAINT "hub_installations_licensee_id_organizations_id_fk" FOREIGN KEY ("licensee_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_licensee_id_organizations_id_fk" FOREIGN KEY ("licensee_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_managed_by_organizations_id_fk" FOREIGN KEY ("managed_by") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hub_installations_licensee_last_seen_idx" ON "hub_installations" USING btree ("licensee_id","last_seen","id");--> statement-breakpoint
CREATE INDEX "licenses_licensee_valid_from_idx" ON "licenses" USING btree ("licensee_id","valid_from","id");--> statement-breakpoint
CREATE INDEX "organizations_managed_by_name_idx" ON "organizations" USING btree ("managed_by","name","id");