ALTER TABLE "users" DROP CONSTRAINT "users_billing_customer_id_unique";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "customer_type";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "billing_customer_id";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "shipping_address";