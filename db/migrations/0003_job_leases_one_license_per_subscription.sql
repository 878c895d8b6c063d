DROP INDEX `jobs_status_idx`;--> statement-breakpoint
ALTER TABLE `jobs` ADD `next_run_at` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_holder` text;--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`status`,`next_run_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `licenses_subscription_idx` ON `licenses` (`subscription_id`);