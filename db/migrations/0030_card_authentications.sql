CREATE TABLE `card_authentications` (
	`setup_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`replaces_source_id` text,
	`set_as_primary` integer NOT NULL,
	`close_to` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `card_setups` (
	`id` text PRIMARY KEY NOT NULL,
	`token_id` text NOT NULL,
	`status` text NOT NULL,
	`return_url` text NOT NULL,
	`created_at` integer NOT NULL
);
