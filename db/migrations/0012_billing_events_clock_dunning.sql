CREATE TABLE `billing_clock` (
	`id` text PRIMARY KEY NOT NULL,
	`advanced_ms` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_events` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`type` text NOT NULL,
	`provider_type` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`resource_version` integer,
	`customer_id` text NOT NULL,
	`content` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_events_id_unique` ON `billing_events` (`id`);--> statement-breakpoint
CREATE INDEX `billing_events_occurred_idx` ON `billing_events` (`occurred_at`);--> statement-breakpoint
CREATE TABLE `billing_sequences` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `purpose` text DEFAULT 'renewal' NOT NULL;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `billing_address` text;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `paid_at` integer;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `next_retry_at` integer;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `payment_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `billing_invoices` ADD `resource_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `billing_invoices_retry_idx` ON `billing_invoices` (`status`,`next_retry_at`);--> statement-breakpoint
ALTER TABLE `billing_subscriptions` ADD `cancelled_at` integer;--> statement-breakpoint
ALTER TABLE `billing_subscriptions` ADD `resource_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `billing_subscriptions_due_idx` ON `billing_subscriptions` (`status`,`current_term_end`);--> statement-breakpoint
ALTER TABLE `card_tokens` ADD `charge_decline` text;--> statement-breakpoint
UPDATE billing_invoices SET purpose = 'one_time' WHERE subscription_id IS NULL;--> statement-breakpoint
UPDATE billing_invoices SET purpose = 'new_subscription' WHERE subscription_id IS NOT NULL AND date = (SELECT min(earliest.date) FROM billing_invoices AS earliest WHERE earliest.subscription_id = billing_invoices.subscription_id);
