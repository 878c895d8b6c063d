ALTER TABLE `licenses` ADD `quote_number` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `order_job_id` text;