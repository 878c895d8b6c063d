CREATE TABLE `tax_ids` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`vat_number` text NOT NULL,
	`status` text NOT NULL,
	`checked_at` integer,
	`register_name` text,
	`register_address` text,
	`consultation_number` text,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `billing_invoice_revisions` (
	`invoice_id` text NOT NULL,
	`revision` integer NOT NULL,
	`seller` text,
	`billed_to` text,
	`po_number` text,
	`issued_at` integer NOT NULL,
	PRIMARY KEY(`invoice_id`, `revision`),
	FOREIGN KEY (`invoice_id`) REFERENCES `billing_invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tax_id_faults` (
	`call` text PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	`kind` text DEFAULT 'final' NOT NULL,
	`message` text NOT NULL,
	`remaining` integer,
	`hang_ms` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `invoices` ADD `revision` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `licenses` ADD `po_number` text;--> statement-breakpoint
ALTER TABLE `billing_customers` ADD `vat_number` text;--> statement-breakpoint
ALTER TABLE `billing_customers` ADD `vat_number_status` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `seller` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `billed_to` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `po_number` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `revision` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `revised_at` integer;--> statement-breakpoint
ALTER TABLE `billing_subscriptions` ADD `po_number` text;