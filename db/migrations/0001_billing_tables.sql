CREATE TABLE `billing_customers` (
	`id` text PRIMARY KEY NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`company` text DEFAULT '' NOT NULL,
	`billing_address` text,
	`primary_payment_source_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_faults` (
	`call` text PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	`kind` text DEFAULT 'final' NOT NULL,
	`message` text NOT NULL,
	`remaining` integer,
	`hang_ms` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`call` text NOT NULL,
	`result` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `billing_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text,
	`status` text NOT NULL,
	`line_items` text NOT NULL,
	`discounts` text NOT NULL,
	`sub_total` integer NOT NULL,
	`total` integer NOT NULL,
	`credits_applied` integer NOT NULL,
	`amount_paid` integer NOT NULL,
	`amount_due` integer NOT NULL,
	`payment_source_id` text,
	`shipping_address` text,
	`date` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `billing_customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_invoices_customer_idx` ON `billing_invoices` (`customer_id`);--> statement-breakpoint
CREATE TABLE `billing_payment_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`status` text NOT NULL,
	`reference_id` text NOT NULL,
	`brand` text NOT NULL,
	`last4` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`expiry_month` integer NOT NULL,
	`expiry_year` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `billing_customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_payment_sources_customer_idx` ON `billing_payment_sources` (`customer_id`);--> statement-breakpoint
CREATE TABLE `billing_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`plan_id` text NOT NULL,
	`plan_quantity` integer NOT NULL,
	`plan_unit_price` integer NOT NULL,
	`addons` text NOT NULL,
	`status` text NOT NULL,
	`current_term_start` integer NOT NULL,
	`current_term_end` integer NOT NULL,
	`next_billing_at` integer NOT NULL,
	`payment_source_id` text,
	`auto_collection` integer DEFAULT true NOT NULL,
	`shipping_address` text,
	`license_assignment` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `billing_customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_subscriptions_customer_idx` ON `billing_subscriptions` (`customer_id`);--> statement-breakpoint
CREATE TABLE `card_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`brand` text NOT NULL,
	`last4` text NOT NULL,
	`expiry_month` integer NOT NULL,
	`expiry_year` integer NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`gateway_customer` text,
	`used_at` integer,
	`created_at` integer NOT NULL
);
