CREATE TABLE `renewal_reminders` (
	`subscription_id` text NOT NULL,
	`term_end` integer NOT NULL,
	`kind` text NOT NULL,
	`owner_id` text NOT NULL,
	`job_key` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`subscription_id`, `term_end`, `kind`),
	FOREIGN KEY (`owner_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscriptions_term_end_idx` ON `subscriptions` (`current_term_end`);