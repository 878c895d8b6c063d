DROP INDEX "invoices_subscription_status_idx";--> statement-breakpoint
CREATE INDEX "invoices_subscription_status_date_idx" ON "invoices" USING btree ("subscription_id","status","date");