CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text,
	"number" text NOT NULL,
	"date" timestamp (3) with time zone NOT NULL,
	"purpose" text NOT NULL,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	"amount_paid" integer NOT NULL,
	"amount_due" integer NOT NULL,
	"paid_at" timestamp (3) with time zone,
	"next_retry_at" timestamp (3) with time zone,
	"resource_version" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"provider_type" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text,
	"resource_version" bigint,
	"customer_id" text,
	"occurred_at" timestamp (3) with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"received_from" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp (3) with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "provider_sync" (
	"id" text PRIMARY KEY NOT NULL,
	"events_since" timestamp (3) with time zone NOT NULL,
	"next_run_at" timestamp (3) with time zone NOT NULL,
	"last_run_at" timestamp (3) with time zone,
	"lease_holder" text,
	"lease_until" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"plan_quantity" integer NOT NULL,
	"status" text NOT NULL,
	"addons" jsonb NOT NULL,
	"current_term_start" timestamp (3) with time zone,
	"current_term_end" timestamp (3) with time zone,
	"next_billing_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"total_dues" integer DEFAULT 0 NOT NULL,
	"due_since" timestamp (3) with time zone,
	"resource_version" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hub_installation_licenses" ADD COLUMN "upload_state" text;--> statement-breakpoint
ALTER TABLE "hub_installation_licenses" ADD COLUMN "upload_message" text;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "terms_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trials" ADD COLUMN "hardware_invoice_id" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_owner_date_idx" ON "invoices" USING btree ("owner_id","date","id");--> statement-breakpoint
CREATE INDEX "invoices_subscription_status_idx" ON "invoices" USING btree ("subscription_id","status");--> statement-breakpoint
CREATE INDEX "provider_events_pending_idx" ON "provider_events" USING btree ("applied_at","received_at");--> statement-breakpoint
CREATE INDEX "provider_events_customer_outcome_idx" ON "provider_events" USING btree ("customer_id","outcome");--> statement-breakpoint
CREATE INDEX "subscriptions_owner_status_idx" ON "subscriptions" USING btree ("owner_id","status");--> statement-breakpoint
CREATE INDEX "hub_installation_licenses_license_idx" ON "hub_installation_licenses" USING btree ("license_id");--> statement-breakpoint
CREATE INDEX "trials_hardware_invoice_idx" ON "trials" USING btree ("hardware_invoice_id");