CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text,
	`number` text NOT NULL,
	`date` integer NOT NULL,
	`purpose` text NOT NULL,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`amount_paid` integer NOT NULL,
	`amount_due` integer NOT NULL,
	`paid_at` integer,
	`next_retry_at` integer,
	`resource_version` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invoices_owner_date_idx` ON `invoices` (`owner_id`,`date`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_subscription_status_idx` ON `invoices` (`subscription_id`,`status`);--> statement-breakpoint
CREATE TABLE `provider_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`provider_type` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text,
	`resource_version` integer,
	`customer_id` text,
	`occurred_at` integer NOT NULL,
	`payload` text NOT NULL,
	`received_from` text NOT NULL,
	`received_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`applied_at` integer,
	`outcome` text
);
--> statement-breakpoint
CREATE INDEX `provider_events_pending_idx` ON `provider_events` (`applied_at`,`received_at`);--> statement-breakpoint
CREATE INDEX `provider_events_customer_outcome_idx` ON `provider_events` (`customer_id`,`outcome`);--> statement-breakpoint
CREATE TABLE `provider_sync` (
	`id` text PRIMARY KEY NOT NULL,
	`events_since` integer NOT NULL,
	`next_run_at` integer NOT NULL,
	`last_run_at` integer,
	`lease_holder` text,
	`lease_until` integer
);
--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`plan_quantity` integer NOT NULL,
	`status` text NOT NULL,
	`addons` text NOT NULL,
	`current_term_start` integer,
	`current_term_end` integer,
	`next_billing_at` integer,
	`cancelled_at` integer,
	`total_dues` integer DEFAULT 0 NOT NULL,
	`due_since` integer,
	`resource_version` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscriptions_owner_status_idx` ON `subscriptions` (`owner_id`,`status`);--> statement-breakpoint
ALTER TABLE `hub_installation_licenses` ADD `upload_state` text;--> statement-breakpoint
ALTER TABLE `hub_installation_licenses` ADD `upload_message` text;--> statement-breakpoint
CREATE INDEX `hub_installation_licenses_license_idx` ON `hub_installation_licenses` (`license_id`);--> statement-breakpoint
ALTER TABLE `licenses` ADD `terms_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `trials` ADD `hardware_invoice_id` text;--> statement-breakpoint
CREATE INDEX `trials_hardware_invoice_idx` ON `trials` (`hardware_invoice_id`);