ALTER TABLE `jobs` ADD `cause` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `search_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `organizations_search_name_idx` ON `organizations` (`search_name`,`id`);--> statement-breakpoint
ALTER TABLE `users` ADD `search_email` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `users_search_email_idx` ON `users` (`search_email`);