ALTER TABLE `one_time_tokens` ADD `quote_id` text REFERENCES quotes(id) ON DELETE CASCADE;--> statement-breakpoint
CREATE INDEX `one_time_tokens_quote_idx` ON `one_time_tokens` (`quote_id`);--> statement-breakpoint
ALTER TABLE `quotes` ADD `sent_to` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `sent_at` integer;--> statement-breakpoint
ALTER TABLE `quotes` ADD `opened_at` integer;--> statement-breakpoint
ALTER TABLE `quotes` ADD `accepted_by_name` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `po_number` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `accepted_at` integer;--> statement-breakpoint
ALTER TABLE `quotes` ADD `accepted_from` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `reminded_at` integer;