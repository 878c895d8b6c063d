CREATE TABLE `quote_counters` (
	`year` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `quote_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`quote_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_name` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`quote_id`) REFERENCES `quotes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quote_events_quote_idx` ON `quote_events` (`quote_id`,`id`);--> statement-breakpoint
CREATE TABLE `quotes` (
	`id` text PRIMARY KEY NOT NULL,
	`number` text NOT NULL,
	`owner_id` text NOT NULL,
	`customer_id` text,
	`organization_name` text NOT NULL,
	`made_by_user_id` text,
	`made_by_name` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`order` text NOT NULL,
	`estimate` text NOT NULL,
	`price_list_version` text NOT NULL,
	`valid_until` integer NOT NULL,
	`quoted_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`made_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quotes_number_unique` ON `quotes` (`number`);--> statement-breakpoint
CREATE INDEX `quotes_owner_idx` ON `quotes` (`owner_id`,`quoted_at`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_owner_status_idx` ON `quotes` (`owner_id`,`status`,`quoted_at`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_customer_idx` ON `quotes` (`customer_id`,`quoted_at`,`id`);