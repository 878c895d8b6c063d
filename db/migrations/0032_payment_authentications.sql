ALTER TABLE `card_setups` ADD `amount` integer;--> statement-breakpoint
ALTER TABLE `card_setups` ADD `currency` text;--> statement-breakpoint
ALTER TABLE `card_setups` ADD `used_at` integer;--> statement-breakpoint
ALTER TABLE `card_tokens` ADD `authentication` text;