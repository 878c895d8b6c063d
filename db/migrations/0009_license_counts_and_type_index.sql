CREATE TABLE `license_counts` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`total` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `licenses_owner_type_idx` ON `licenses` (`owner_id`,`type`);