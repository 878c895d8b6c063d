ALTER TABLE `hub_installations` ADD `licensee_id` text REFERENCES organizations(id);--> statement-breakpoint
CREATE INDEX `hub_installations_licensee_last_seen_idx` ON `hub_installations` (`licensee_id`,`last_seen`,`id`);--> statement-breakpoint
ALTER TABLE `licenses` ADD `licensee_id` text REFERENCES organizations(id);--> statement-breakpoint
CREATE INDEX `licenses_licensee_valid_from_idx` ON `licenses` (`licensee_id`,`valid_from`,`id`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `managed_by` text REFERENCES organizations(id);--> statement-breakpoint
ALTER TABLE `organizations` ADD `address` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `contact_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `contact_email` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `organizations_managed_by_name_idx` ON `organizations` (`managed_by`,`name`,`id`);