DROP INDEX `licenses_owner_idx`;--> statement-breakpoint
CREATE INDEX `licenses_owner_valid_from_idx` ON `licenses` (`owner_id`,`valid_from`,`id`);--> statement-breakpoint
ALTER TABLE `billing_customers` ADD `credit_balance` integer DEFAULT 0 NOT NULL;