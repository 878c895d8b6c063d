CREATE TABLE "tax_ids" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"vat_number" text NOT NULL,
	"status" text NOT NULL,
	"checked_at" timestamp (3) with time zone,
	"register_name" text,
	"register_address" text,
	"consultation_number" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_invoice_revisions" (
	"invoice_id" text NOT NULL,
	"revision" integer NOT NULL,
	"seller" jsonb,
	"billed_to" jsonb,
	"po_number" text,
	"issued_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "billing_invoice_revisions_invoice_id_revision_pk" PRIMARY KEY("invoice_id","revision")
);
--> statement-breakpoint
CREATE TABLE "tax_id_faults" (
	"call" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"kind" text DEFAULT 'final' NOT NULL,
	"message" text NOT NULL,
	"remaining" integer,
	"hang_ms" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD COLUMN "vat_number" text;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD COLUMN "vat_number_status" text;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD COLUMN "seller" jsonb;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD COLUMN "billed_to" jsonb;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_invoices" ADD COLUMN "revised_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "tax_ids" ADD CONSTRAINT "tax_ids_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_invoice_revisions" ADD CONSTRAINT "billing_invoice_revisions_invoice_id_billing_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."billing_invoices"("id") ON DELETE cascade ON UPDATE no action;