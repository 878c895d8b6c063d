CREATE TABLE `hub_admins` (
	`hub_id` text PRIMARY KEY NOT NULL,
	`user_name` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`phone_number` text DEFAULT '' NOT NULL,
	`password_hash` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`hub_id`) REFERENCES `hub_tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `hub_faults` (
	`call` text PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	`kind` text DEFAULT 'final' NOT NULL,
	`message` text NOT NULL,
	`remaining` integer,
	`hang_ms` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hub_licenses` (
	`license_id` text PRIMARY KEY NOT NULL,
	`hub_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`license_code` text NOT NULL,
	`name` text NOT NULL,
	`nodes` integer NOT NULL,
	`plan_type` text NOT NULL,
	`valid_from` integer NOT NULL,
	`valid_to` integer NOT NULL,
	`uploaded_at` integer NOT NULL,
	FOREIGN KEY (`hub_id`) REFERENCES `hub_tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hub_licenses_customer_idx` ON `hub_licenses` (`customer_id`);--> statement-breakpoint
CREATE TABLE `hub_sign_in_links` (
	`ticket_hash` text PRIMARY KEY NOT NULL,
	`hub_id` text NOT NULL,
	`user_name` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`hub_id`) REFERENCES `hub_tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `hub_tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`subdomain` text NOT NULL,
	`url` text NOT NULL,
	`region` integer NOT NULL,
	`ready_at` integer NOT NULL,
	`running_at` integer NOT NULL,
	`added_at` integer,
	`registered_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hub_tenants_subdomain_unique` ON `hub_tenants` (`subdomain`);--> statement-breakpoint
CREATE INDEX `hub_tenants_customer_idx` ON `hub_tenants` (`customer_id`);