ALTER TABLE "licenses" ADD COLUMN "quote_number" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "order_job_id" text;