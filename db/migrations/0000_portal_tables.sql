CREATE TABLE `hub_installation_licenses` (
	`hub_installation_id` text NOT NULL,
	`license_id` text NOT NULL,
	PRIMARY KEY(`hub_installation_id`, `license_id`),
	FOREIGN KEY (`hub_installation_id`) REFERENCES `hub_installations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `hub_installations` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`type` text NOT NULL,
	`url` text,
	`ip` text,
	`last_seen` integer,
	`version` text,
	`computers` integer DEFAULT 0 NOT NULL,
	`users` integer DEFAULT 0 NOT NULL,
	`max_users` integer DEFAULT 0 NOT NULL,
	`devices` integer DEFAULT 0 NOT NULL,
	`credentials` integer DEFAULT 0 NOT NULL,
	`locks_this_month` integer DEFAULT 0 NOT NULL,
	`locks_this_year` integer DEFAULT 0 NOT NULL,
	`unlocks_this_month` integer DEFAULT 0 NOT NULL,
	`unlocks_this_year` integer DEFAULT 0 NOT NULL,
	`web_credentials_used_this_month` integer DEFAULT 0 NOT NULL,
	`web_credentials_used_this_year` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hub_installations_owner_idx` ON `hub_installations` (`owner_id`);--> statement-breakpoint
CREATE TABLE `licenses` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`external_license_id` text NOT NULL,
	`name` text NOT NULL,
	`nodes` integer NOT NULL,
	`plan_type` text NOT NULL,
	`type` text NOT NULL,
	`has_cloud_support` integer DEFAULT false NOT NULL,
	`valid_from` integer NOT NULL,
	`valid_to` integer NOT NULL,
	`license_code` text NOT NULL,
	`is_used` integer DEFAULT false NOT NULL,
	`subscription_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_external_license_id_unique` ON `licenses` (`external_license_id`);--> statement-breakpoint
CREATE INDEX `licenses_owner_idx` ON `licenses` (`owner_id`);--> statement-breakpoint
CREATE TABLE `trials` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`hub_type` text NOT NULL,
	`hub_id` text,
	`hub_url` text,
	`license_id` text,
	`nodes` integer NOT NULL,
	`employees` integer NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`sensors` integer DEFAULT 0 NOT NULL,
	`duration` integer NOT NULL,
	`user_name` text,
	`address` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`license_id`) REFERENCES `licenses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trials_user_idx` ON `trials` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`company` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`customer_type` text DEFAULT 'customer' NOT NULL,
	`is_gk_admin` integer DEFAULT false NOT NULL,
	`billing_customer_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_billing_customer_id_unique` ON `users` (`billing_customer_id`);