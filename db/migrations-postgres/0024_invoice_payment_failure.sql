ALTER TABLE "invoices" ADD COLUMN "payment_failure" text;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD COLUMN "payment_failure" text;