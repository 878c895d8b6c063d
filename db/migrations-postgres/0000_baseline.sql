CREATE TABLE "drafts" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"wizard" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_installation_licenses" (
	"hub_installation_id" text NOT NULL,
	"license_id" text NOT NULL,
	CONSTRAINT "hub_installation_licenses_hub_installation_id_license_id_pk" PRIMARY KEY("hub_installation_id","license_id")
);
--> statement-breakpoint
CREATE TABLE "hub_installations" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"type" text NOT NULL,
	"url" text,
	"ip" text,
	"last_seen" timestamp (3) with time zone,
	"version" text,
	"computers" integer DEFAULT 0 NOT NULL,
	"users" integer DEFAULT 0 NOT NULL,
	"max_users" integer DEFAULT 0 NOT NULL,
	"devices" integer DEFAULT 0 NOT NULL,
	"credentials" integer DEFAULT 0 NOT NULL,
	"locks_this_month" integer DEFAULT 0 NOT NULL,
	"locks_this_year" integer DEFAULT 0 NOT NULL,
	"unlocks_this_month" integer DEFAULT 0 NOT NULL,
	"unlocks_this_year" integer DEFAULT 0 NOT NULL,
	"web_credentials_used_this_month" integer DEFAULT 0 NOT NULL,
	"web_credentials_used_this_year" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"input" jsonb NOT NULL,
	"steps" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" jsonb,
	"result" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_run_at" timestamp (3) with time zone,
	"lease_holder" text,
	"lease_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "jobs_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "license_counts" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"total" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"external_license_id" text NOT NULL,
	"name" text NOT NULL,
	"nodes" integer NOT NULL,
	"plan_type" text NOT NULL,
	"type" text NOT NULL,
	"has_cloud_support" boolean DEFAULT false NOT NULL,
	"valid_from" timestamp (3) with time zone NOT NULL,
	"valid_to" timestamp (3) with time zone NOT NULL,
	"license_code" text NOT NULL,
	"is_used" boolean DEFAULT false NOT NULL,
	"subscription_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licenses_external_license_id_unique" UNIQUE("external_license_id")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"last_seen_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"csrf_token" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"hub_type" text NOT NULL,
	"hub_id" text,
	"hub_url" text,
	"license_id" text,
	"nodes" integer NOT NULL,
	"employees" integer NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"sensors" integer DEFAULT 0 NOT NULL,
	"duration" integer NOT NULL,
	"user_name" text,
	"address" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"customer_type" text DEFAULT 'customer' NOT NULL,
	"is_gk_admin" boolean DEFAULT false NOT NULL,
	"billing_customer_id" text,
	"shipping_address" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_billing_customer_id_unique" UNIQUE("billing_customer_id")
);
--> statement-breakpoint
CREATE TABLE "billing_customers" (
	"id" text PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"billing_address" jsonb,
	"primary_payment_source_id" text,
	"credit_balance" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_faults" (
	"call" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"kind" text DEFAULT 'final' NOT NULL,
	"message" text NOT NULL,
	"remaining" integer,
	"hang_ms" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_idempotency_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"call" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text,
	"status" text NOT NULL,
	"line_items" jsonb NOT NULL,
	"discounts" jsonb NOT NULL,
	"sub_total" integer NOT NULL,
	"total" integer NOT NULL,
	"credits_applied" integer NOT NULL,
	"amount_paid" integer NOT NULL,
	"amount_due" integer NOT NULL,
	"payment_source_id" text,
	"shipping_address" jsonb,
	"date" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_payment_sources" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"reference_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"expiry_month" integer NOT NULL,
	"expiry_year" integer NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"plan_quantity" integer NOT NULL,
	"plan_unit_price" integer NOT NULL,
	"addons" jsonb NOT NULL,
	"status" text NOT NULL,
	"current_term_start" timestamp (3) with time zone NOT NULL,
	"current_term_end" timestamp (3) with time zone NOT NULL,
	"next_billing_at" timestamp (3) with time zone NOT NULL,
	"payment_source_id" text,
	"auto_collection" boolean DEFAULT true NOT NULL,
	"shipping_address" jsonb,
	"license_assignment" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"expiry_month" integer NOT NULL,
	"expiry_year" integer NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"gateway_customer" text,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_admins" (
	"hub_id" text PRIMARY KEY NOT NULL,
	"user_name" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_faults" (
	"call" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"kind" text DEFAULT 'final' NOT NULL,
	"message" text NOT NULL,
	"remaining" integer,
	"hang_ms" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_licenses" (
	"license_id" text PRIMARY KEY NOT NULL,
	"hub_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"license_code" text NOT NULL,
	"name" text NOT NULL,
	"nodes" integer NOT NULL,
	"plan_type" text NOT NULL,
	"valid_from" timestamp (3) with time zone NOT NULL,
	"valid_to" timestamp (3) with time zone NOT NULL,
	"uploaded_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_sign_in_links" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"hub_id" text NOT NULL,
	"user_name" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_tenants" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"subdomain" text NOT NULL,
	"url" text NOT NULL,
	"region" integer NOT NULL,
	"ready_at" timestamp (3) with time zone NOT NULL,
	"running_at" timestamp (3) with time zone NOT NULL,
	"added_at" timestamp (3) with time zone,
	"registered_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "hub_tenants_subdomain_unique" UNIQUE("subdomain")
);
--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_installation_licenses" ADD CONSTRAINT "hub_installation_licenses_hub_installation_id_hub_installations_id_fk" FOREIGN KEY ("hub_installation_id") REFERENCES "public"."hub_installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_installation_licenses" ADD CONSTRAINT "hub_installation_licenses_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_installations" ADD CONSTRAINT "hub_installations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_counts" ADD CONSTRAINT "license_counts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD CONSTRAINT "billing_invoices_customer_id_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payment_sources" ADD CONSTRAINT "billing_payment_sources_customer_id_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_customer_id_billing_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."billing_customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_admins" ADD CONSTRAINT "hub_admins_hub_id_hub_tenants_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."hub_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_licenses" ADD CONSTRAINT "hub_licenses_hub_id_hub_tenants_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."hub_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hub_sign_in_links" ADD CONSTRAINT "hub_sign_in_links_hub_id_hub_tenants_id_fk" FOREIGN KEY ("hub_id") REFERENCES "public"."hub_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drafts_owner_wizard_idx" ON "drafts" USING btree ("owner_id","wizard");--> statement-breakpoint
CREATE INDEX "hub_installations_owner_last_seen_idx" ON "hub_installations" USING btree ("owner_id","last_seen","id");--> statement-breakpoint
CREATE INDEX "hub_installations_owner_type_last_seen_idx" ON "hub_installations" USING btree ("owner_id","type","last_seen","id");--> statement-breakpoint
CREATE INDEX "jobs_owner_idx" ON "jobs" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("status","next_run_at");--> statement-breakpoint
CREATE INDEX "licenses_owner_valid_from_idx" ON "licenses" USING btree ("owner_id","valid_from","id");--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_subscription_idx" ON "licenses" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "licenses_owner_valid_to_idx" ON "licenses" USING btree ("owner_id","valid_to");--> statement-breakpoint
CREATE INDEX "licenses_owner_type_idx" ON "licenses" USING btree ("owner_id","type");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "trials_user_idx" ON "trials" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "billing_invoices_customer_idx" ON "billing_invoices" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "billing_payment_sources_customer_idx" ON "billing_payment_sources" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_customer_idx" ON "billing_subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "hub_licenses_customer_idx" ON "hub_licenses" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "hub_tenants_customer_idx" ON "hub_tenants" USING btree ("customer_id");