ALTER TABLE "jobs" ADD COLUMN "cause" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "search_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "organizations_search_name_idx" ON "organizations" USING btree ("search_name","id");--> statement-breakpoint
CREATE INDEX "users_search_email_idx" ON "users" USING btree ("search_email");