DROP INDEX `hub_installations_owner_idx`;--> statement-breakpoint
CREATE INDEX `hub_installations_owner_last_seen_idx` ON `hub_installations` (`owner_id`,`last_seen`,`id`);--> statement-breakpoint
CREATE INDEX `licenses_owner_valid_to_idx` ON `licenses` (`owner_id`,`valid_to`);